/** antd forms and overlays (see ./ui): loaded by the screens and menus that use them. */
export { CloseOutlined, LogoutOutlined } from '@ant-design/icons';
export type { FormInstance, FormProps, MenuProps } from 'antd';
export {
  Dropdown,
  Form,
  Input,
  InputNumber,
  Modal,
  Radio,
  Result,
  Select,
  Tooltip,
  Typography,
} from 'antd';
export { PasswordFields } from './password-fields';
