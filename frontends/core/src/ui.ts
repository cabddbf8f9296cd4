/**
 * antd for the page frame, re-exported as ONE shared module (a federation singleton the shell
 * provides): the shell and every remote use the same antd code, so one ConfigProvider and theme
 * reach all of them, and webpack keeps only what is listed (so list only what is used). Four barrels,
 * so a page downloads only what it shows: ./ui (frame, every page), ./ui-forms (forms, overlays),
 * ./ui-data (tables, cards), ./ui-dates (date and time pickers).
 * Import antd only through them, never 'antd' directly.
 */
export {
  ArrowLeftOutlined,
  DeleteOutlined,
  DownOutlined,
  EditOutlined,
  LeftOutlined,
  MenuOutlined,
  PlusOutlined,
  RightOutlined,
  ShoppingCartOutlined,
  UserOutlined,
} from '@ant-design/icons';
export type { ThemeConfig } from 'antd';
export {
  Alert,
  Button,
  ConfigProvider,
  Empty,
  Flex,
  Grid,
  Layout,
  Space,
  Spin,
} from 'antd';
export { Loading } from './loading';
