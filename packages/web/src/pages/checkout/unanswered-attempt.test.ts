import { describe, expect, it } from 'vitest';
import type { Order } from '../../api/types.ts';
import { messages } from '../../i18n/messages.ts';
import { unansweredAttemptNotice } from './unanswered-attempt.ts';

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

describe('what the checkout says about an attempt whose answer was lost', () => {
  it('says a pending latest attempt is being confirmed and will not charge twice, watched or not', () => {
    expect(unansweredAttemptNotice(orderWith(['declined', 'pending']), false)).toBe(messages.attemptBeingConfirmed);
    expect(unansweredAttemptNotice(orderWith(['pending']), true)).toBe(messages.attemptBeingConfirmed);
  });

  it('says an attempt that ended declined did not go through, only once the page was watching it', () => {
    expect(unansweredAttemptNotice(orderWith(['declined']), true)).toBe(messages.attemptNotGoneThrough);
    expect(unansweredAttemptNotice(orderWith(['declined']), false)).toBeNull();
  });

  it('says nothing for an order without attempts', () => {
    expect(unansweredAttemptNotice(orderWith([]), true)).toBeNull();
  });
});
