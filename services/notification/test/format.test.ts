import { formatLongDate, formatMoment, formatMoney, formatTime, ordinal } from '../src/domain/format';

describe('formatMoney', () => {
  it.each([
    [0, '$0.00'],
    [5, '$0.05'],
    [1050, '$10.50'],
    [123456789, '$1,234,567.89'],
    [100000, '$1,000.00'],
    [-2599, '-$25.99'],
  ])('%i cents → %s', (cents, shown) => {
    expect(formatMoney(cents)).toBe(shown);
  });
});

describe('ordinal', () => {
  it.each([
    [1, '1st'],
    [2, '2nd'],
    [3, '3rd'],
    [4, '4th'],
    [11, '11th'],
    [12, '12th'],
    [13, '13th'],
    [21, '21st'],
    [22, '22nd'],
    [23, '23rd'],
    [30, '30th'],
    [31, '31st'],
    [111, '111th'],
  ])('%i → %s', (n, shown) => {
    expect(ordinal(n)).toBe(shown);
  });
});

describe('formatLongDate', () => {
  it.each([
    ['2027-03-13', 'Saturday, March 13th, 2027'],
    ['2027-03-14', 'Sunday, March 14th, 2027'],
    ['2026-01-01', 'Thursday, January 1st, 2026'],
    ['2028-02-29', 'Tuesday, February 29th, 2028'],
    ['2026-12-22', 'Tuesday, December 22nd, 2026'],
    [' 2026-11-03 ', 'Tuesday, November 3rd, 2026'],
  ])('%s → %s', (value, shown) => {
    expect(formatLongDate(value)).toBe(shown);
  });

  it('leaves what is not a calendar date as given', () => {
    expect(formatLongDate('2027-02-29')).toBe('2027-02-29');
    expect(formatLongDate('2027-13-01')).toBe('2027-13-01');
    expect(formatLongDate('next Friday ')).toBe('next Friday');
    expect(formatLongDate('')).toBe('');
  });
});

describe('formatTime', () => {
  it.each([
    ['00:00', '12:00 AM'],
    ['00:05', '12:05 AM'],
    ['09:15', '9:15 AM'],
    ['9:15', '9:15 AM'],
    ['11:59', '11:59 AM'],
    ['12:00', '12:00 PM'],
    ['17:30', '5:30 PM'],
    ['17:30:00', '5:30 PM'],
    ['23:45:10.000', '11:45 PM'],
    ['5:30 pm', '5:30 PM'],
    ['5:30PM', '5:30 PM'],
    ['12:15 a.m.', '12:15 AM'],
  ])('%s → %s', (value, shown) => {
    expect(formatTime(value)).toBe(shown);
  });

  it('leaves what is not a clock time as given', () => {
    expect(formatTime('24:00')).toBe('24:00');
    expect(formatTime('10:75')).toBe('10:75');
    expect(formatTime('13:00 PM')).toBe('13:00 PM');
    expect(formatTime('after lunch')).toBe('after lunch');
  });
});

describe('formatMoment', () => {
  it.each([
    ['2031-01-17T16:00:00.000Z', undefined, 'Friday, January 17th, 2031 at 4:00 PM UTC'],
    ['2031-01-17T16:00:00.000Z', 'America/Denver', 'Friday, January 17th, 2031 at 9:00 AM MST'],
    // Past midnight in UTC, still the evening before in Denver.
    ['2031-07-02T03:30:00.000Z', 'America/Denver', 'Tuesday, July 1st, 2031 at 9:30 PM MDT'],
    ['2031-07-02T00:05:00.000Z', 'UTC', 'Wednesday, July 2nd, 2031 at 12:05 AM UTC'],
    ['not a date', 'UTC', 'not a date'],
  ])('%s in %s → %s', (iso, zone, shown) => {
    expect(formatMoment(iso, zone)).toBe(shown);
  });
});
