import { describe, expect, it } from 'vitest';
import { addDays, addMonths, billingDayFor, isCalendarDate } from './billing-calendar.ts';

describe('billing calendar', () => {
  it('keeps the billing day, capped at the last day of shorter months (31 = the last day)', () => {
    expect(addMonths('2026-01-31', 1, 31)).toBe('2026-02-28');
    expect(addMonths('2028-01-31', 1, 31)).toBe('2028-02-29');
    expect(addMonths('2026-02-28', 1, 31)).toBe('2026-03-31');
    expect(addMonths('2026-03-31', 1, 31)).toBe('2026-04-30');
    expect(addMonths('2026-11-15', 3, 15)).toBe('2027-02-15');
    expect(addMonths('2026-12-05', 1, 5)).toBe('2027-01-05');
    expect(addMonths('2026-11-23', 0, 10)).toBe('2026-11-10');
  });

  it('turns a start on the 29th-31st into the last day of the month', () => {
    expect([billingDayFor('2026-05-28'), billingDayFor('2026-05-29'), billingDayFor('2026-05-31')]).toEqual([28, 31, 31]);
  });

  it('adds days across months and years, and checks dates', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect([
      isCalendarDate('2026-02-29'),
      isCalendarDate('2028-02-29'),
      isCalendarDate('2026-13-01'),
      isCalendarDate('26-1-1'),
    ]).toEqual([false, true, false, false]);
  });
});
