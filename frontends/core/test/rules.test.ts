import { formatLongDate, formatTime, ordinal } from '../src/rules/format';
import { mainImage, PLACEHOLDER_IMAGE, withMain } from '../src/rules/images';
import {
  CALL_FOR_DETAILS,
  cartTotalDollars,
  formatDollars,
  priceDisplay,
  quantityAllowed,
} from '../src/rules/price';
import { filledWillCallValues, showWillCall } from '../src/rules/will-call';

describe('price rule (spec §2)', () => {
  it('shows the price only when price and quantity are both above 0', () => {
    expect(priceDisplay({ id: 'BAR-001', price: 350, quantity: 4 })).toEqual({
      kind: 'price',
      text: '$350.00',
    });
    for (const [price, quantity] of [
      [0, 4],
      [350, 0],
      [undefined, undefined],
      [-1, 5],
    ]) {
      expect(priceDisplay({ id: 'BAR-001', price, quantity })).toEqual({
        kind: 'call',
        text: CALL_FOR_DETAILS,
        sku: 'BAR-001',
      });
    }
    expect(CALL_FOR_DETAILS).toBe('Call or Email us for Details!');
  });

  it('formats dollars with thousands and two decimals', () => {
    expect(formatDollars(1234.5)).toBe('$1,234.50');
    expect(formatDollars(0.1 + 0.2)).toBe('$0.30');
    expect(formatDollars(0)).toBe('$0.00');
    expect(formatDollars(1_000_000)).toBe('$1,000,000.00');
  });

  it('cart total = sum of price × qty through the shared cents rule', () => {
    expect(
      cartTotalDollars([
        { price: 19.99, qty: 3 },
        { price: 0.1, qty: 2 },
      ]),
    ).toBe(60.17);
    expect(cartTotalDollars([])).toBe(0);
  });

  it('a quantity is allowed from 1 to the stock', () => {
    expect(quantityAllowed(1, 3)).toBe(true);
    expect(quantityAllowed(3, 3)).toBe(true);
    expect(quantityAllowed(4, 3)).toBe(false);
    expect(quantityAllowed(0, 3)).toBe(false);
    expect(quantityAllowed(1.5, 3)).toBe(false);
    expect(quantityAllowed(1, undefined)).toBe(false);
  });
});

describe('summary formats (spec §5)', () => {
  it('ordinal days', () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 31, 101, 111].map(ordinal)).toEqual([
      '1st',
      '2nd',
      '3rd',
      '4th',
      '11th',
      '12th',
      '13th',
      '21st',
      '22nd',
      '23rd',
      '31st',
      '101st',
      '111th',
    ]);
  });

  it('long dates with the ordinal day, whatever the time zone', () => {
    expect(formatLongDate('2027-03-14')).toBe('Sunday, March 14th, 2027');
    expect(formatLongDate('2026-12-01')).toBe('Tuesday, December 1st, 2026');
    expect(formatLongDate('2028-02-29')).toBe('Tuesday, February 29th, 2028');
    expect(formatLongDate('2027-02-30')).toBe('2027-02-30');
    expect(formatLongDate('')).toBe('');
    expect(formatLongDate(undefined)).toBe('');
  });

  it('12-hour times with AM/PM', () => {
    expect(formatTime('00:05')).toBe('12:05 AM');
    expect(formatTime('09:30')).toBe('9:30 AM');
    expect(formatTime('12:00')).toBe('12:00 PM');
    expect(formatTime('17:45:00')).toBe('5:45 PM');
    expect(formatTime('23:59')).toBe('11:59 PM');
    expect(formatTime('24:00')).toBe('24:00');
    expect(formatTime('noon')).toBe('noon');
  });
});

describe('will-call rule (spec §5)', () => {
  it('shows the will-call details only with at least two values filled', () => {
    expect(showWillCall({})).toBe(false);
    expect(showWillCall({ willCallCustomerName: 'Evergreen Weddings' })).toBe(false);
    expect(showWillCall({ willCallCustomerName: 'Evergreen Weddings', willCallPickupDate: '  ' })).toBe(
      false,
    );
    expect(
      showWillCall({ willCallCustomerName: 'Evergreen Weddings', willCallPickupDate: '2027-03-13' }),
    ).toBe(true);
    expect(showWillCall({ willCallPickupTime: '10:00', willCallReturnTime: '16:00' })).toBe(true);
    expect(
      filledWillCallValues({
        willCallCustomerName: 'a',
        willCallPickupDate: 'b',
        willCallPickupTime: 'c',
        willCallReturnDate: 'd',
        willCallReturnTime: 'e',
      }),
    ).toBe(5);
  });
});

describe('product images (spec §2)', () => {
  const img = (id: string, primary = false) => ({
    id,
    url: `/img/${id}.svg`,
    primary,
    type: 'image/svg+xml',
  });

  it('prefers the primary image, else the first, else a placeholder', () => {
    expect(mainImage([img('a'), img('b', true)])).toEqual({ url: '/img/b.svg', placeholder: false });
    expect(mainImage([img('a'), img('b')])).toEqual({ url: '/img/a.svg', placeholder: false });
    expect(mainImage([])).toEqual({ url: PLACEHOLDER_IMAGE, placeholder: true });
    expect(mainImage(undefined).placeholder).toBe(true);
  });

  it('a chosen thumbnail takes the main position and the main image becomes a thumbnail', () => {
    const images = [img('a', true), img('b'), img('c')];
    expect(withMain(images, null).main?.id).toBe('a');
    const swapped = withMain(images, 'c');
    expect(swapped.main?.id).toBe('c');
    expect(swapped.thumbnails.map((i) => i.id)).toEqual(['a', 'b']);
  });
});
