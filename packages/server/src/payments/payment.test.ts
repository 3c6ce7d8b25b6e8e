import { describe, expect, it } from 'vitest';
import { canTransitionOrder, ORDER_STATUSES } from '../orders/order.ts';
import { canTransitionPayment, LIVE_PAYMENT_STATUSES, PAYMENT_STATUSES } from './payment.ts';

describe('payment and order transitions', () => {
  it('lets a pending attempt end once, and nothing leave an end state', () => {
    expect(PAYMENT_STATUSES).toEqual(['pending', 'succeeded', 'declined']);
    expect(canTransitionPayment('pending', 'succeeded')).toBe(true);
    expect(canTransitionPayment('pending', 'declined')).toBe(true);
    expect(canTransitionPayment('succeeded', 'declined')).toBe(false);
    expect(canTransitionPayment('declined', 'succeeded')).toBe(false);
    expect(LIVE_PAYMENT_STATUSES).toEqual(['pending', 'succeeded']);
  });

  it('moves an order from pending to paid only', () => {
    expect(ORDER_STATUSES).toEqual(['pending', 'paid']);
    expect(canTransitionOrder('pending', 'paid')).toBe(true);
    expect(canTransitionOrder('paid', 'pending')).toBe(false);
  });
});
