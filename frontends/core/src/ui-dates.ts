/**
 * antd's date and time pickers with dayjs (see ./ui): a barrel of their own, so a screen that shows
 * a table or a card does not download the pickers, and the inventory's 'Check availability' loads
 * them only when a visitor opens it.
 */
export type { DatePickerProps } from 'antd';
export { DatePicker, TimePicker } from 'antd';
export type { Dayjs } from 'dayjs';
export { default as dayjs } from 'dayjs';
