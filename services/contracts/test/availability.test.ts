import {
  availabilityHint,
  availableFor,
  availableOnText,
  bookedPerDay,
  bookingWindow,
  DEFAULT_TURNAROUND,
  holdsStock,
  peakBooked,
  rangesOverlap,
  shortLineText,
  subRentalText,
  turnaroundFor,
} from '../src/availability';
import { addDays, daysUntil, isCalendarDay, monthDays, shiftMonth } from '../src/calendar-day';

const NONE = { before: 0, after: 0 };

describe('calendar days', () => {
  it('knows real days and moves across months, years and leap days', () => {
    expect(isCalendarDay('2028-02-29')).toBe(true);
    expect(isCalendarDay('2027-02-29')).toBe(false);
    expect(isCalendarDay('2027-1-09')).toBe(false);
    expect(isCalendarDay(undefined)).toBe(false);
    expect(addDays('2027-12-31', 1)).toBe('2028-01-01');
    expect(addDays('2028-03-01', -1)).toBe('2028-02-29');
    expect(daysUntil('2027-01-09', '2027-01-06')).toBe(3);
    expect(monthDays('2028-02')).toEqual({ first: '2028-02-01', last: '2028-02-29' });
    expect(monthDays('2027-12')).toEqual({ first: '2027-12-01', last: '2027-12-31' });
    expect(monthDays('2027-13')).toBeUndefined();
    expect(shiftMonth('2027-12', 1)).toBe('2028-01');
    expect(shiftMonth('2027-01', -1)).toBe('2026-12');
  });
});

describe('turnaround buffers', () => {
  it('takes the product override, then the category, then the shop, side by side', () => {
    expect(turnaroundFor(DEFAULT_TURNAROUND)).toEqual({ before: 1, after: 1 });
    expect(turnaroundFor(DEFAULT_TURNAROUND, { after: 2 })).toEqual({ before: 1, after: 2 });
    expect(turnaroundFor(DEFAULT_TURNAROUND, { before: 3, after: 2 }, { before: 0 })).toEqual({
      before: 0,
      after: 2,
    });
  });
});

describe('booking window', () => {
  it('is the event day alone, widened by the buffer', () => {
    expect(bookingWindow({ eventDate: '2027-01-09' }, NONE)).toEqual({
      first: '2027-01-09',
      last: '2027-01-09',
    });
    expect(bookingWindow({ eventDate: '2027-01-09' }, DEFAULT_TURNAROUND)).toEqual({
      first: '2027-01-08',
      last: '2027-01-10',
    });
  });

  it('spans will-call pickup before and return after the event', () => {
    const dates = {
      eventDate: '2027-01-09',
      willCallPickupDate: '2027-01-07',
      willCallReturnDate: '2027-01-11',
    };
    expect(bookingWindow(dates, { before: 1, after: 2 })).toEqual({
      first: '2027-01-06',
      last: '2027-01-13',
    });
  });

  it('keeps the event day when will-call dates fall inside it or are not dates', () => {
    const dates = {
      eventDate: '2027-01-09',
      willCallPickupDate: '2027-01-09',
      willCallReturnDate: 'next week',
    };
    expect(bookingWindow(dates, NONE)).toEqual({ first: '2027-01-09', last: '2027-01-09' });
    // A return date before the event still counts as a day out of the shop.
    expect(bookingWindow({ eventDate: '2027-01-09', willCallReturnDate: '2027-01-05' }, NONE)).toEqual({
      first: '2027-01-05',
      last: '2027-01-09',
    });
  });

  it('is undefined without a valid event date', () => {
    expect(bookingWindow({ eventDate: '' }, NONE)).toBeUndefined();
    expect(bookingWindow({ willCallPickupDate: '2027-01-07' }, NONE)).toBeUndefined();
  });
});

describe('overlap and the sweep line', () => {
  const saturday = { first: '2027-01-09', last: '2027-01-09' };
  const sunday = { first: '2027-01-10', last: '2027-01-10' };

  it('the same day overlaps; adjacent days do not, until a buffer joins them', () => {
    expect(rangesOverlap(saturday, saturday)).toBe(true);
    expect(rangesOverlap(saturday, sunday)).toBe(false);
    const withBuffer = bookingWindow({ eventDate: '2027-01-09' }, { before: 0, after: 1 });
    expect(rangesOverlap(withBuffer ?? saturday, sunday)).toBe(true);
  });

  it('counts units per day and finds the tightest day', () => {
    const bookings = [
      { first: '2027-01-08', last: '2027-01-10', qty: 5 },
      { first: '2027-01-10', last: '2027-01-12', qty: 7 },
      { first: '2027-01-01', last: '2027-01-02', qty: 100 }, // outside the range
    ];
    const range = { first: '2027-01-07', last: '2027-01-12' };
    expect(bookedPerDay(bookings, range)).toEqual([0, 5, 5, 12, 7, 7]);
    expect(peakBooked(bookings, range)).toEqual({ booked: 12, day: '2027-01-10' });
    expect(availableFor(20, bookings, range)).toEqual({ available: 8, day: '2027-01-10' });
    expect(availableFor(20, bookings, { first: '2027-01-11', last: '2027-01-12' })).toEqual({
      available: 13,
      day: '2027-01-11',
    });
  });

  it('clips bookings that start before or end after the range, and never reports below 0', () => {
    const long = [{ first: '2026-12-01', last: '2027-02-01', qty: 30 }];
    expect(bookedPerDay(long, saturday)).toEqual([30]);
    expect(availableFor(20, long, saturday)).toEqual({ available: 0, day: '2027-01-09' });
  });

  it('names the event day when it is one of the tightest', () => {
    const flat = [{ first: '2027-01-08', last: '2027-01-10', qty: 4 }];
    const window = { first: '2027-01-08', last: '2027-01-10' };
    expect(peakBooked(flat, window, '2027-01-09')).toEqual({ booked: 4, day: '2027-01-09' });
    const later = [...flat, { first: '2027-01-10', last: '2027-01-10', qty: 1 }];
    expect(peakBooked(later, window, '2027-01-09')).toEqual({ booked: 5, day: '2027-01-10' });
  });

  it('an empty store leaves everything free; the first day names a flat window', () => {
    expect(availableFor(10, [], { first: '2027-01-09', last: '2027-01-11' })).toEqual({
      available: 10,
      day: '2027-01-09',
    });
  });
});

describe('which orders hold stock', () => {
  const window = { first: '2027-01-08', last: '2027-01-10' };
  it('Pending by policy, Open and Closed always, Voided never, Completed until its window ends', () => {
    expect(holdsStock({ status: 'Pending' }, window, '2027-01-01')).toBe(true);
    expect(holdsStock({ status: 'Pending' }, window, '2027-01-01', { pendingHolds: false })).toBe(false);
    const invoice = { status: 'Pending', orderType: 'invoice' } as const;
    expect(holdsStock(invoice, window, '2027-01-01', { pendingHolds: false })).toBe(true);
    expect(holdsStock({ status: 'Open' }, window, '2027-01-01')).toBe(true);
    expect(holdsStock({ status: 'Closed' }, window, '2027-01-01')).toBe(true);
    expect(holdsStock({ status: 'Voided' }, window, '2027-01-01')).toBe(false);
    expect(holdsStock({ status: 'Completed' }, window, '2027-01-10')).toBe(true);
    expect(holdsStock({ status: 'Completed' }, window, '2027-01-11')).toBe(false);
  });
});

describe('texts', () => {
  it('says it in the spec’s date format', () => {
    expect(shortLineText(12, 'Chiavari Chairs', '2027-01-09')).toBe(
      'Only 12 Chiavari Chairs are available on Saturday, January 9th, 2027',
    );
    expect(availableOnText(4, '2027-01-09')).toBe('4 available on Saturday, January 9th, 2027');
    expect(availabilityHint(0, 100)).toBe('Not available');
    expect(availabilityHint(3, 10)).toBe('Only a few left');
    expect(availabilityHint(10, 100)).toBe('Only a few left');
    expect(availabilityHint(11, 100)).toBe('Available');
  });

  it('names who confirmed a sub-rental and on which day (the reader’s own day)', () => {
    const at = new Date(2027, 0, 9, 23, 30); // late on Saturday where the test runs
    expect(subRentalText({ by: 'ana@shop.com', at: at.toISOString() })).toBe(
      'Sub-rental confirmed by ana@shop.com on Saturday, January 9th, 2027',
    );
  });
});
