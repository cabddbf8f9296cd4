/** antd tables, pickers and cards (see ./ui): loaded by the screens that use them. */

export type { TableColumnsType } from 'antd';
export {
  Badge,
  Card,
  Checkbox,
  Collapse,
  DatePicker,
  FloatButton,
  Image,
  List,
  Popconfirm,
  Table,
  Tabs,
  Tag,
  TimePicker,
} from 'antd';
export type { Dayjs } from 'dayjs';
export { default as dayjs } from 'dayjs';
