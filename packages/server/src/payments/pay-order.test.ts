import { describe, expect, it } from 'vitest';
import type { PaymentRow } from '../db/schema.ts';
import { GatewayUnavailableError } from '../gateway/gateway.ts';
import type { PaymentGateway } from '../gateway/gateway.ts';
import { outcomeOf } from './pay-order.ts';

/**
 * The use-case's reading of gateway answers that need no further gateway call. The gateway here must not be called:
 * each method fails the test (a charge in another currency, which voids, runs against the sandbox in
 * payments.http.test.ts).
 */
const untouched: PaymentGateway = {
  createCustomer: () => expect.fail('no gateway call expected'),
  generateClientToken: () => expect.fail('no gateway call expected'),
  sale: () => expect.fail('no gateway call expected'),
  voidTransaction: () => expect.fail('no gateway call expected'),
  refundTransaction: () => expect.fail('no gateway call expected'),
  transactionStatus: () => expect.fail('no gateway call expected'),
  transactionHistory: () => expect.fail('no gateway call expected'),
};

const attempt = { id: 'pay_1', currency: 'EUR' } as PaymentRow;

describe("outcomeOf: what a sale's answer means for the attempt", () => {
  it("records a charge in the order's currency as a success with its card", async () => {
    const threeDSecure = { status: 'authenticate_successful', liabilityShifted: true, liabilityShiftPossible: true };
    const charged = {
      kind: 'charged',
      transactionId: 't1',
      status: 'submitted_for_settlement',
      currency: 'EUR',
      paymentMethodType: 'credit_card',
      card: { brand: 'Visa', lastFour: '1111' },
      threeDSecure,
    } as const;
    expect(await outcomeOf(untouched, attempt, charged, false)).toEqual({
      kind: 'succeeded',
      transactionId: 't1',
      paymentMethodType: 'credit_card',
      card: { brand: 'Visa', lastFour: '1111' },
      threeDSecure,
    });
  });

  it("records the gateway's declines with their reason and processor response", async () => {
    const declined = {
      kind: 'declined',
      reason: 'processor_declined',
      transactionId: 't2',
      paymentMethodType: 'credit_card',
      threeDSecure: null,
      processorResponseCode: '2000',
      processorResponseText: 'Do Not Honor',
    } as const;
    expect(await outcomeOf(untouched, attempt, declined, true)).toEqual(declined);
  });

  it('declines a refused first request, but leaves a refused resend and a request-key conflict unknown', async () => {
    const refused = {
      kind: 'refused',
      reason: 'invalid_request',
      codes: ['91564'],
      message: 'Cannot use a payment_method_nonce more than once.',
    } as const;
    expect(await outcomeOf(untouched, attempt, refused, false)).toEqual({
      kind: 'declined',
      reason: 'gateway_rejected',
      processorResponseText: refused.message,
    });
    await expect(outcomeOf(untouched, attempt, refused, true)).rejects.toBeInstanceOf(GatewayUnavailableError);
    const conflict = { kind: 'refused', reason: 'request_key_conflict', codes: ['915233'], message: 'in flight' } as const;
    await expect(outcomeOf(untouched, attempt, conflict, false)).rejects.toBeInstanceOf(GatewayUnavailableError);
  });

  it('never declines a sale in a status that may still become a charge', async () => {
    await expect(
      outcomeOf(untouched, attempt, { kind: 'undecided', transactionId: 't3', status: 'authorizing' }, false),
    ).rejects.toThrow(/authorizing: outcome unknown/);
  });
});
