import { cartTotalCents, estimateTotals, lineTotalCents, toCents, toDollars } from '../src/money';

describe('money rules (spec §9)', () => {
  it('converts between dollars and cents without float drift', () => {
    expect(toCents(19.99)).toBe(1999);
    expect(toCents(0.1 + 0.2)).toBe(30);
    expect(toDollars(1999)).toBe(19.99);
  });

  it('line total is price × quantity and cart total their sum', () => {
    expect(lineTotalCents(1250, 3)).toBe(3750);
    expect(
      cartTotalCents([
        { priceCents: 1250, qty: 3 },
        { priceCents: 99, qty: 2 },
      ]),
    ).toBe(3948);
    expect(cartTotalCents([])).toBe(0);
  });

  it('taxes 8.1 % of subtotal plus trucking, rounded to the cent', () => {
    expect(estimateTotals(100_000, 35_000)).toEqual({
      subtotalCents: 100_000,
      truckingCents: 35_000,
      taxCents: 10_935,
      totalCents: 145_935,
    });
    // 8.1 % of $12.34 is 99.954 cents → 100 cents
    expect(estimateTotals(1234, 0).taxCents).toBe(100);
  });
});
