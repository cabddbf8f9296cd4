import { Value } from '@sinclair/typebox/value';
import {
  AvailabilityCalendar,
  AvailabilityConflict,
  AvailabilityHint,
  availabilityHint,
  DayHold,
  HoldingOrder,
  ProductAvailability,
  ShortLinesRefusal,
} from '../src';

describe('the availability answers (issue 15)', () => {
  it("every hint availabilityHint gives is the schema's", () => {
    for (const [available, owned] of [
      [0, 10],
      [2, 10],
      [50, 100],
    ] as const)
      expect(Value.Check(AvailabilityHint, availabilityHint(available, owned))).toBe(true);
    expect(Value.Check(AvailabilityHint, 'Maybe')).toBe(false);
  });

  it('a visitor gets the hint only, a signed-in user the number and the tightest day', () => {
    expect(Value.Check(ProductAvailability, { id: 'chair', hint: 'Available' })).toBe(true);
    expect(
      Value.Check(ProductAvailability, {
        id: 'chair',
        hint: 'Only a few left',
        available: 3,
        day: '2027-01-09',
      }),
    ).toBe(true);
    expect(Value.Check(ProductAvailability, { id: 'chair', hint: 'Available', available: 2.5 })).toBe(false);
  });

  it('the calendar: units booked per day of the month, per product', () => {
    const product = { id: 'chair', name: 'Chair', category: 'Seating', owned: 40, booked: [0, 12, 12] };
    expect(
      Value.Check(AvailabilityCalendar, { first: '2027-01-01', last: '2027-01-03', products: [product] }),
    ).toBe(true);
    expect(
      Value.Check(AvailabilityCalendar, {
        first: '2027-01-01',
        last: '2027-01-03',
        products: [{ ...product, booked: [1.5] }],
      }),
    ).toBe(false);
  });

  const hold = { orderId: 'o1', DocNumber: null, qty: 4, overbooked: false, subRental: null };
  const subRental = { by: 'ana@shop.example', at: '2026-11-27T10:00:00.000Z', lines: [] };

  it('an order holding a product: its sub-rental when staff booked it beyond the free units, else null', () => {
    expect(Value.Check(HoldingOrder, hold)).toBe(true);
    expect(Value.Check(HoldingOrder, { ...hold, DocNumber: '1001', overbooked: true, subRental })).toBe(true);
    const { subRental: _subRental, ...withoutSubRental } = hold;
    expect(Value.Check(HoldingOrder, withoutSubRental)).toBe(false);
  });

  it('a hold on a day also names the days it holds; a conflict lists the orders holding', () => {
    expect(Value.Check(DayHold, { ...hold, first: '2027-01-08', last: '2027-01-10' })).toBe(true);
    expect(Value.Check(DayHold, hold)).toBe(false);
    const conflict = {
      id: 'chair',
      name: 'Chair',
      owned: 40,
      first: '2027-01-09',
      last: '2027-01-09',
      peak: 44,
    };
    expect(Value.Check(AvailabilityConflict, { ...conflict, orders: [hold] })).toBe(true);
    expect(Value.Check(AvailabilityConflict, { ...conflict, orders: [{ ...hold, qty: 'four' }] })).toBe(
      false,
    );
  });

  it('a 409: the sentence, and every short line when a booking does not fit', () => {
    const short = { productId: 'chair', name: 'Chairs', requested: 50, available: 12, day: '2027-01-09' };
    expect(
      Value.Check(ShortLinesRefusal, { message: 'Only 12 Chairs are available', shortLines: [short] }),
    ).toBe(true);
    expect(Value.Check(ShortLinesRefusal, { message: 'This estimate is closed' })).toBe(true);
    expect(Value.Check(ShortLinesRefusal, { shortLines: [short] })).toBe(false);
  });
});
