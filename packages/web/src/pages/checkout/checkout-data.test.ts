import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/client.ts';
import type { CheckoutSession, Order } from '../../api/types.ts';
import {
  loadCheckout,
  startCheckoutLoad,
  startedCheckoutOutcome,
  takeCheckoutLoad,
  type CheckoutCalls,
} from './checkout-data.ts';

// The page's loading logic alone: the server's two answers are stand-ins here (a unit test runs without a server);
// e2e/tests/checkout*.spec.ts open real checkout pages.

const order = (status: Order['status']) => ({ id: 'ord_1', status }) as Order;
const session = { clientToken: 'token' } as CheckoutSession;

/** Calls that answer only when the test says so, recording what was asked and when. */
function heldCalls(orderStatus: Order['status'], sessionAnswer: () => Promise<CheckoutSession>) {
  const asked: string[] = [];
  let answerOrder: () => void = () => {};
  const calls: CheckoutCalls = {
    order: (id) => {
      asked.push(`order ${id}`);
      return new Promise((resolve) => {
        answerOrder = () => resolve({ order: order(orderStatus) });
      });
    },
    checkoutSession: (id) => {
      asked.push(`session ${id}`);
      return sessionAnswer();
    },
  };
  return { calls, asked, answerOrder: () => answerOrder() };
}

describe('loadCheckout', () => {
  it('asks for the order and its checkout session at once, before either answers, and gives both for a pending order', async () => {
    const held = heldCalls('pending', () => Promise.resolve(session));
    const loading = loadCheckout('ord_1', held.calls);
    expect(held.asked.sort()).toEqual(['order ord_1', 'session ord_1']);
    held.answerOrder();
    await expect(loading).resolves.toEqual({ order: order('pending'), session });
  });

  it('drops the refused session of a paid order: the page shows the order, with no session', async () => {
    const held = heldCalls('paid', () => Promise.reject(new ApiError({ status: 409, code: 'order_already_paid' })));
    const loading = loadCheckout('ord_1', held.calls);
    held.answerOrder();
    await expect(loading).resolves.toEqual({ order: order('paid'), session: undefined });
  });

  it("fails with the session's problem when a pending order's session is refused", async () => {
    const refusal = new ApiError({ status: 429, code: 'too_many_attempts' });
    const held = heldCalls('pending', () => Promise.reject(refusal));
    const loading = loadCheckout('ord_1', held.calls);
    held.answerOrder();
    await expect(loading).rejects.toBe(refusal);
  });
});

/** Lets the calls' answers travel through loadCheckout's awaits. */
const answersArrived = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('startCheckoutLoad', () => {
  it("keeps the started load's answer for the page's first render once it has come; the page that takes it forgets it", async () => {
    const held = heldCalls('pending', () => Promise.resolve(session));
    startCheckoutLoad('/checkout/ord_2', held.calls);
    startCheckoutLoad('/cart', held.calls);
    expect(held.asked.sort()).toEqual(['order ord_2', 'session ord_2']);
    expect(startedCheckoutOutcome('ord_2')).toBeUndefined();
    held.answerOrder();
    await answersArrived();
    const ready = { status: 'ready', data: { order: order('pending'), session } };
    expect(startedCheckoutOutcome('ord_2')).toEqual(ready);
    await expect(takeCheckoutLoad('ord_2', held.calls)).resolves.toEqual(ready.data);
    expect(startedCheckoutOutcome('ord_2')).toBeUndefined();
    // A later visit loads afresh.
    void takeCheckoutLoad('ord_2', held.calls);
    expect(held.asked).toHaveLength(4);
  });

  it("keeps a failed load's problem for the page's first render", async () => {
    const held = heldCalls('pending', () => Promise.reject(new ApiError({ status: 429, code: 'too_many_attempts' })));
    startCheckoutLoad('/checkout/ord_3', held.calls);
    held.answerOrder();
    await answersArrived();
    expect(startedCheckoutOutcome('ord_3')).toEqual({ status: 'failed', problem: { status: 429, code: 'too_many_attempts' } });
    await expect(takeCheckoutLoad('ord_3', held.calls)).rejects.toBeInstanceOf(ApiError);
  });
});
