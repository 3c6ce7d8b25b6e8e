import { describe, expect, it } from 'vitest';
import type { Order } from '../../api/types.ts';
import { messages } from '../../i18n/messages.ts';
import { POLL_MS, nextCheckInMs, unansweredAttemptNotice, watchAttempt } from './unanswered-attempt.ts';
import type { AttemptWatch, AttemptWatchEvent } from './unanswered-attempt.ts';

const money = { amount: 1200, currency: 'EUR' };

function orderWith(statuses: Array<'pending' | 'declined' | 'succeeded'>): Order {
  const payments = statuses.map((status, i): Order['payments'][number] => {
    if (status === 'pending') return { id: `pay_${i}`, status, amount: money };
    if (status === 'declined') return { id: `pay_${i}`, status, amount: money, decline: { reason: 'processor_declined' } };
    return { id: `pay_${i}`, status, amount: money, transactionId: 't', card: { brand: 'visa', lastFour: '1111' } };
  });
  return {
    id: 'ord_1',
    number: 1001,
    status: 'pending',
    items: [],
    total: money,
    createdAt: '2026-11-23T00:00:00Z',
    payments,
    payment: payments.at(-1),
  };
}

/** The page's state after these events, from nothing loaded. */
const after = (...events: AttemptWatchEvent[]): AttemptWatch =>
  events.reduce(watchAttempt, { order: undefined, watching: false, askNow: false });
const loaded = (statuses: Array<'pending' | 'declined' | 'succeeded'>): AttemptWatchEvent => ({
  type: 'loaded',
  order: orderWith(statuses),
});
const refreshed = (statuses: Array<'pending' | 'declined' | 'succeeded'>): AttemptWatchEvent => ({
  type: 'refreshed',
  order: orderWith(statuses),
});

describe('what the checkout says about an attempt whose answer was lost', () => {
  it('says a pending latest attempt is being confirmed and will not charge twice, watched or not', () => {
    expect(unansweredAttemptNotice({ order: orderWith(['declined', 'pending']), watching: false, askNow: false })).toBe(
      messages.attemptBeingConfirmed,
    );
    expect(unansweredAttemptNotice(after(loaded(['pending'])))).toBe(messages.attemptBeingConfirmed);
  });

  it('says an attempt that ended declined did not go through once a payment error made the page watch it', () => {
    expect(unansweredAttemptNotice(after(loaded([]), { type: 'payment_failed' }, refreshed(['declined'])))).toBe(
      messages.attemptNotGoneThrough,
    );
  });

  it('says an attempt found pending when the page opened did not go through when it ends declined', () => {
    // The shopper was told it is being confirmed, waited, and must hear how it ended (issue 10).
    expect(unansweredAttemptNotice(after(loaded(['pending']), refreshed(['declined'])))).toBe(messages.attemptNotGoneThrough);
  });

  it('says nothing of an old decline to a shopper who just opened the page, nor for an order without attempts', () => {
    expect(unansweredAttemptNotice(after(loaded(['declined'])))).toBeNull();
    expect(unansweredAttemptNotice(after(loaded([]), { type: 'payment_failed' }, refreshed([])))).toBeNull();
  });
});

describe('when the checkout asks for the order again', () => {
  it('every POLL_MS while the latest attempt is pending, from the page load on, until it is not', () => {
    expect(nextCheckInMs(after(loaded(['pending'])))).toBe(POLL_MS);
    expect(nextCheckInMs(after(loaded(['pending']), refreshed(['pending'])))).toBe(POLL_MS);
    expect(nextCheckInMs(after(loaded(['pending']), refreshed(['succeeded'])))).toBeNull();
    expect(nextCheckInMs(after(loaded(['pending']), refreshed(['declined'])))).toBeNull();
  });

  it('at once after a payment error, then only while pending; never before the order is loaded or with nothing pending', () => {
    expect(nextCheckInMs(after(loaded(['declined']), { type: 'payment_failed' }))).toBe(0);
    expect(nextCheckInMs(after(loaded(['declined']), { type: 'payment_failed' }, refreshed(['declined'])))).toBeNull();
    expect(nextCheckInMs(after({ type: 'payment_failed' }))).toBeNull();
    expect(nextCheckInMs(after(loaded(['declined'])))).toBeNull();
  });
});
