import type braintree from 'braintree';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../index.ts';
import { startSandboxWithClient } from '../testing/sandbox.ts';

// 3-D Secure through the official SDK: the provider's 3-D Secure fake nonces, `threeDSecure.required`, and the
// transaction's threeDSecureInfo as the SDK parses it.

let sandbox: Sandbox;
let gateway: braintree.BraintreeGateway;

beforeAll(async () => {
  ({ sandbox, gateway } = await startSandboxWithClient());
});
afterAll(async () => {
  await sandbox.close();
});

interface FullInfo {
  cavv: string | null;
  eciFlag: string | null;
  dsTransactionId: string | null;
}

function sale(paymentMethodNonce: string, required?: boolean) {
  return gateway.transaction.sale({
    amount: '25.00',
    paymentMethodNonce,
    ...(required === undefined ? {} : { options: { threeDSecure: { required } } }),
  });
}

describe('3-D Secure fake nonces', () => {
  it.each([
    [
      'fake-three-d-secure-visa-full-authentication-nonce',
      { liabilityShifted: true, liabilityShiftPossible: true, status: 'authenticate_successful', enrolled: 'Y' },
    ],
    [
      'fake-three-d-secure-two-visa-successful-frictionless-authentication-nonce',
      { liabilityShifted: true, liabilityShiftPossible: true, status: 'authenticate_successful', enrolled: 'Y' },
    ],
    [
      'fake-three-d-secure-two-visa-successful-step-up-authentication-nonce',
      { liabilityShifted: true, liabilityShiftPossible: true, status: 'authenticate_successful', enrolled: 'Y' },
    ],
    [
      'fake-three-d-secure-two-visa-error-on-lookup-nonce',
      { liabilityShifted: false, liabilityShiftPossible: false, status: 'lookup_error', enrolled: 'U' },
    ],
    [
      'fake-three-d-secure-two-visa-timeout-on-lookup-nonce',
      { liabilityShifted: false, liabilityShiftPossible: false, status: 'lookup_error', enrolled: 'U' },
    ],
  ])('%s: the transaction carries threeDSecureInfo %j', async (nonce, expected) => {
    const result = await sale(nonce);
    expect(result.success).toBe(true);
    // @types/braintree declares only some of the fields the SDK sets.
    const info = result.transaction.threeDSecureInfo as (braintree.TransactionThreeDSecureInfo & FullInfo) | undefined;
    expect(info).toMatchObject({ ...expected, threeDSecureVersion: '2.2.0' });
    expect(typeof info?.liabilityShifted).toBe('boolean');
    if (expected.liabilityShifted) {
      expect(info?.cavv).toMatch(/^[A-Za-z0-9+/]+=*$/);
      expect(info?.eciFlag).toBe('05');
      expect(info?.dsTransactionId).toMatch(/^[0-9a-f-]{36}$/);
    } else {
      expect(info?.cavv).toBeNull();
    }
    // find answers the same record.
    expect((await gateway.transaction.find(result.transaction.id)).threeDSecureInfo?.status).toBe(expected.status);
  });

  it('a card nonce without 3-D Secure has no threeDSecureInfo', async () => {
    const result = await sale('fake-valid-visa-nonce');
    expect(result.transaction.threeDSecureInfo).toBeNull();
  });
});

describe('options.threeDSecure.required', () => {
  it('rejects a nonce without 3-D Secure: gateway_rejected, three_d_secure', async () => {
    const result = await sale('fake-valid-visa-nonce', true);
    expect(result.success).toBe(false);
    expect(result.transaction.status).toBe('gateway_rejected');
    expect(result.transaction.gatewayRejectionReason).toBe('three_d_secure');
    expect(result.message).toBe('Gateway Rejected: three_d_secure');
  });

  it('rejects a 3-D Secure nonce whose liability did not shift', async () => {
    const result = await sale('fake-three-d-secure-two-visa-error-on-lookup-nonce', true);
    expect(result.transaction.gatewayRejectionReason).toBe('three_d_secure');
    expect(result.transaction.threeDSecureInfo?.status).toBe('lookup_error');
  });

  it('authorizes a nonce whose liability shifted', async () => {
    const result = await sale('fake-three-d-secure-two-visa-successful-frictionless-authentication-nonce', true);
    expect(result.success).toBe(true);
    expect(result.transaction.status).toBe('authorized');
  });

  it.each([
    ['fake-paypal-one-time-nonce', 'paypal_account'],
    ['fake-venmo-account-nonce', 'venmo_account'],
    ['fake-apple-pay-visa-nonce', 'apple_pay_card'],
    ['fake-android-pay-visa-nonce', 'android_pay_card'],
  ])('does not apply to %s (3-D Secure is for cards only): the sale is authorized', async (nonce, instrument) => {
    const result = await sale(nonce, true);
    expect(result.success).toBe(true);
    expect(result.transaction).toMatchObject({ status: 'authorized', paymentInstrumentType: instrument });
    expect(result.transaction.threeDSecureInfo).toBeNull();
  });

  it('false (or absent) charges a nonce without 3-D Secure', async () => {
    expect((await sale('fake-valid-visa-nonce', false)).transaction.status).toBe('authorized');
  });
});
