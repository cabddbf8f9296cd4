import { Value } from '@sinclair/typebox/value';
import { OrderChange } from '../src';

describe("the live order stream's message (issue 9)", () => {
  const change = {
    type: 'InvoiceStatusChanged',
    orderType: 'invoice',
    id: 'i1',
    status: 'Open',
    revision: 3,
  };

  it('names the change: the event type, the order, its status and revision', () => {
    expect(Value.Check(OrderChange, change)).toBe(true);
    expect(Value.Check(OrderChange, { ...change, orderType: 'cart' })).toBe(false);
    const { revision: _revision, ...withoutRevision } = change;
    expect(Value.Check(OrderChange, withoutRevision)).toBe(false);
  });

  it('never carries the order itself (no lines, no customer)', () => {
    expect(Value.Check(OrderChange, { ...change, lines: [] })).toBe(false);
    expect(Value.Check(OrderChange, { ...change, customer: { email: 'a@b.example' } })).toBe(false);
  });
});
