// Calendar dates of recurring billing, as the provider writes them: 'YYYY-MM-DD' strings (dates, not instants), in
// UTC here. A billing day of month of 31 means the last day of every month (the provider turns a start on the 29th,
// 30th or 31st into that), so a subscription started on 31 January bills on 28/29 February, 31 March, 30 April.

export type CalendarDate = string;

export const LAST_DAY_OF_MONTH = 31;

function parts(date: CalendarDate): [year: number, month: number, day: number] {
  const [year = 0, month = 1, day = 1] = date.split('-').map(Number);
  return [year, month, day];
}

function format(year: number, month: number, day: number): CalendarDate {
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** The UTC calendar date of an instant. */
export function calendarDate(instant: Date): CalendarDate {
  return instant.toISOString().slice(0, 10);
}

/** The billing day a subscription starting on `date` keeps: its day of month, 29-31 becoming the last day. */
export function billingDayFor(date: CalendarDate): number {
  const day = parts(date)[2];
  return day > 28 ? LAST_DAY_OF_MONTH : day;
}

/** `months` months after `date`, on `billingDayOfMonth` (capped at the month's last day). */
export function addMonths(date: CalendarDate, months: number, billingDayOfMonth: number): CalendarDate {
  const [year, month] = parts(date);
  const index = year * 12 + (month - 1) + months;
  const targetYear = Math.floor(index / 12);
  const targetMonth = (index % 12) + 1;
  return format(targetYear, targetMonth, Math.min(billingDayOfMonth, daysInMonth(targetYear, targetMonth)));
}

export function addDays(date: CalendarDate, days: number): CalendarDate {
  const [year, month, day] = parts(date);
  return calendarDate(new Date(Date.UTC(year, month - 1, day + days)));
}

/** Whether `text` is a real 'YYYY-MM-DD' date. */
export function isCalendarDate(text: unknown): text is CalendarDate {
  if (typeof text !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const [year, month, day] = parts(text);
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}
