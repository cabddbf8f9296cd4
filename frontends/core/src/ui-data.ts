/** antd tables, lists and cards (see ./ui): loaded by the screens that use them (pickers: ./ui-dates). */

export type { TableColumnsType } from 'antd';
export {
  Card,
  Checkbox,
  Collapse,
  Popconfirm,
  Table,
  Tabs,
  Tag,
} from 'antd';
// Also in ./ui-dates: screens that format days without a picker need not download one.
export type { Dayjs } from 'dayjs';
export { default as dayjs } from 'dayjs';
