/**
 * The storefront's public screens for the server renderer (issue 17, frontends/shell/src/server): the
 * same screens the remote exposes, imported as code where there is no federation runtime.
 */

import { provideDayPicker } from './shared/availability/components/DateField';
import * as dayPicker from './shared/availability/components/DayPicker';

// The browser loads antd's pickers when they are needed; the server renders them into the page.
provideDayPicker(dayPicker);

export { default as Inventory } from './inventory';
