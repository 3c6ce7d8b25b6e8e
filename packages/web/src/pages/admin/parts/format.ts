import { adminMessages } from '../../../i18n/admin-messages.ts';

const dateTime = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' });
const dateOnly = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeZone: 'UTC' });

/** "Nov 23, 2026, 4:30 PM" in the merchant's time zone. */
export function formatDateTime(iso: string): string {
  return dateTime.format(new Date(iso));
}

const dayThisYear = new Intl.DateTimeFormat('en', { month: 'short', day: 'numeric' });
const dayOtherYear = new Intl.DateTimeFormat('en', { dateStyle: 'medium' });
const time = new Intl.DateTimeFormat('en', { timeStyle: 'short' });
/** Spaces that do not break, so a cell wraps between the day and the time only. */
const unbroken = (text: string) => text.replace(/\s/g, '\u00a0');

/**
 * A list's moment: "Nov 23, 4:30 PM" this year, with the year before ("Nov 23, 2025, 4:30 PM"), as dashboards date
 * their rows. The year in every row cost each date column about 80 px. It breaks, on a phone, only after the day.
 */
export function formatListDateTime(iso: string, now: Date = new Date()): string {
  const date = new Date(iso);
  const day = (date.getFullYear() === now.getFullYear() ? dayThisYear : dayOtherYear).format(date);
  return `${unbroken(day)}, ${unbroken(time.format(date))}`;
}

/** A calendar day (`YYYY-MM-DD`, UTC as the server counts them): "Nov 23, 2026". */
export function formatDay(day: string): string {
  return dateOnly.format(new Date(`${day.slice(0, 10)}T00:00:00Z`));
}

export function formatPercent(ratio: number): string {
  return new Intl.NumberFormat('en', { style: 'percent', maximumFractionDigits: 1 }).format(ratio);
}

export function paymentStatusLabel(status: string): string {
  return adminMessages.paymentStatus[status] ?? status;
}
