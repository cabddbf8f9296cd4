/** Spec §4's one rule for 'Pending Approval' / 'Pending Update', shared by the order screens and e-mails. */
import { MODIFIED_STATUS_TEXT, ORDER_STATUSES, orderStatusText, TERMINAL_STATUSES } from '../src/lifecycle';

const order = (status: string, hasBeenModified: boolean, isInQbo: boolean) => ({
  status,
  hasBeenModified,
  isInQbo,
});

it('an unmodified order reads its status to everyone', () => {
  for (const status of ORDER_STATUSES) {
    expect(orderStatusText(order(status, false, true), 'customer')).toBe(status);
    expect(orderStatusText(order(status, false, true), 'staff')).toBe(status);
  }
});

it.each(['Pending', 'Open'])('a modified %s order is Pending Approval to its customer', (status) => {
  expect(orderStatusText(order(status, true, false), 'customer')).toBe('Pending Approval');
  expect(orderStatusText(order(status, true, true), 'customer')).toBe(MODIFIED_STATUS_TEXT.customer);
});

it.each(['Pending', 'Open'])(
  'a modified %s order is Pending Update to staff, in QuickBooks or not yet',
  (status) => {
    expect(orderStatusText(order(status, true, true), 'staff')).toBe('Pending Update');
    expect(orderStatusText(order(status, true, false), 'staff')).toBe('Pending Update');
  },
);

it('a terminal order reads its status even if it was modified', () => {
  expect([...TERMINAL_STATUSES]).toEqual(['Closed', 'Completed', 'Voided']);
  for (const status of TERMINAL_STATUSES) {
    expect(orderStatusText(order(status, true, true), 'customer')).toBe(status);
    expect(orderStatusText(order(status, true, true), 'staff')).toBe(status);
  }
});
