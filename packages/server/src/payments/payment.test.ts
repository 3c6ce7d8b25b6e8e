import { describe, expect, it } from 'vitest';
import { canTransitionOrder, ORDER_STATUSES } from '../orders/order.ts';
import { canTransitionPayment, CHARGED_PAYMENT_STATUSES, LIVE_PAYMENT_STATUSES, PAYMENT_STATUSES } from './payment.ts';

describe('payment and order transitions', () => {
  it('lets a pending attempt end once, and a charge only be voided or refunded after', () => {
    expect(PAYMENT_STATUSES).toEqual(['pending', 'succeeded', 'partially_refunded', 'refunded', 'voided', 'declined']);
    expect(canTransitionPayment('pending', 'succeeded')).toBe(true);
    expect(canTransitionPayment('pending', 'declined')).toBe(true);
    expect(canTransitionPayment('pending', 'refunded')).toBe(false);
    expect(canTransitionPayment('succeeded', 'declined')).toBe(false);
    expect(canTransitionPayment('declined', 'succeeded')).toBe(false);
    expect(canTransitionPayment('succeeded', 'voided')).toBe(true);
    expect(canTransitionPayment('succeeded', 'partially_refunded')).toBe(true);
    expect(canTransitionPayment('partially_refunded', 'refunded')).toBe(true);
    expect(canTransitionPayment('partially_refunded', 'voided')).toBe(false);
    for (const end of ['refunded', 'voided', 'declined'] as const) {
      for (const to of PAYMENT_STATUSES) expect(canTransitionPayment(end, to)).toBe(false);
    }
    expect(LIVE_PAYMENT_STATUSES).toEqual(['pending', 'succeeded']);
    expect(CHARGED_PAYMENT_STATUSES).toEqual(['succeeded', 'partially_refunded', 'refunded', 'voided']);
  });

  it('moves an order from pending to paid, and a paid one only to refunded or voided', () => {
    expect(ORDER_STATUSES).toEqual(['pending', 'paid', 'refunded', 'voided']);
    expect(canTransitionOrder('pending', 'paid')).toBe(true);
    expect(canTransitionOrder('paid', 'pending')).toBe(false);
    expect(canTransitionOrder('pending', 'refunded')).toBe(false);
    expect(canTransitionOrder('paid', 'refunded')).toBe(true);
    expect(canTransitionOrder('paid', 'voided')).toBe(true);
    expect(canTransitionOrder('refunded', 'paid')).toBe(false);
    expect(canTransitionOrder('voided', 'paid')).toBe(false);
  });
});
