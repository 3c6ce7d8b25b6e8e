import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/connect.ts';
import type { PaymentRow } from '../db/schema.ts';
import { GatewayUnavailableError } from '../gateway/gateway.ts';
import type { PaymentGateway } from '../gateway/gateway.ts';
import { insertMugOrder } from '../testing/orders.ts';
import { ENGINES } from '../testing/engines.ts';
import { outcomeOf, payOrder } from './pay-order.ts';
import { Velocity } from '../velocity/velocity.ts';
import type { Counts } from '../velocity/velocity.ts';
import { insertPendingPayment, recordOutcome } from './payments.repository.ts';

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

/** `db`, running `between` once: after its first statement answered, before the next one is sent. */
function withPauseAfterFirstStatement(db: Db, between: () => Promise<unknown>): Db {
  let paused = false;
  return new Proxy(db, {
    get(target, name) {
      const member: unknown = Reflect.get(target, name, target);
      if (name !== 'executeQuery' || typeof member !== 'function') {
        return typeof member === 'function' ? member.bind(target) : member;
      }
      return async (...args: unknown[]) => {
        const answer: unknown = await member.apply(target, args);
        if (!paused) {
          paused = true;
          await between();
        }
        return answer;
      };
    },
  });
}

describe.each(ENGINES.map((make) => [make().name, make] as const))('payOrder on %s', (_name, make) => {
  const engine = make();
  beforeAll(() => engine.setup());
  afterAll(() => engine.teardown());

  it("answers a key's attempt that another request charged meanwhile with the order that charge paid", async () => {
    const { handle, cleanup } = await engine.open();
    const { db } = handle;
    try {
      const { order, owner, total } = await insertMugOrder(db, 'ses_retry');
      const attempt = await insertPendingPayment(db, {
        orderId: order.id,
        amount: total,
        idempotencyRef: 'ses_retry:key',
        nonce: 'fake-valid-visa-nonce',
        deviceData: null,
        merchantAccountId: null,
      });
      if (attempt === undefined) throw new Error('no attempt recorded');
      // The retry reads the order (still pending), then the request that held the attempt records its charge.
      const charged = withPauseAfterFirstStatement(db, () =>
        recordOutcome(db, attempt, {
          kind: 'succeeded',
          transactionId: 'txn_charged',
          paymentMethodType: 'credit_card',
          card: { brand: 'Visa', lastFour: '1111' },
          threeDSecure: null,
        }),
      );
      const result = await payOrder(
        {
          db: charged,
          gateway: untouched,
          checkBotcheck: () => expect.fail('no bot-check expected: the attempt is made'),
          merchantAccountId: null,
          threeDSecureRequiredAbove: null,
          staleAttemptMs: 60_000,
        },
        { orderId: order.id, owner, nonce: 'fake-valid-visa-nonce', botcheckToken: 'spent', idempotencyRef: 'ses_retry:key' },
      );
      expect(result.kind).toBe('succeeded');
      expect(result.kind === 'succeeded' ? result.order : undefined).toMatchObject({
        status: 'paid',
        payment: { status: 'succeeded', transactionId: 'txn_charged' },
      });
    } finally {
      await cleanup();
    }
  });

  it("writes an outcome's velocity counts with its answer, once: a late duplicate's answer and counts are not written, and of outcomes sent at once one is recorded and counted", async () => {
    const { handle, cleanup } = await engine.open();
    const { db } = handle;
    try {
      const velocity = new Velocity(db);
      const attemptOf = async (sessionId: string) => {
        const { order, total } = await insertMugOrder(db, sessionId);
        const pending = await insertPendingPayment(db, {
          orderId: order.id,
          amount: total,
          idempotencyRef: `${sessionId}:key`,
          nonce: 'fake-valid-visa-nonce',
          deviceData: null,
          merchantAccountId: null,
        });
        if (pending === undefined) throw new Error('no attempt recorded');
        return pending;
      };
      const charge = {
        kind: 'succeeded',
        transactionId: 'txn_counted',
        paymentMethodType: 'credit_card',
        card: { brand: 'Visa', lastFour: '1111' },
        threeDSecure: null,
      } as const;
      const charged = await attemptOf('ses_charged');
      const approval = () => velocity.counts([{ action: 'approval', subjects: { bin: '411111' }, detail: 'card_a' }]);
      const first = await recordOutcome(db, charged, charge, approval());
      expect(first).toMatchObject({ payment: { status: 'succeeded' }, orderStatus: 'paid', orderAttempts: 1 });
      const late = await recordOutcome(db, charged, { kind: 'declined', reason: 'processor_declined' }, approval());
      expect(late).toMatchObject({ payment: { status: 'succeeded', transaction_id: 'txn_counted' }, orderStatus: 'paid' });

      const declined = await attemptOf('ses_declined');
      const decline = () =>
        velocity.counts([{ action: 'decline', subjects: { session: 'ses_declined', ip: '10.0.0.9' }, detail: 'card_b' }]);
      const refused = await recordOutcome(db, declined, { kind: 'declined', reason: 'processor_declined' }, decline());
      expect(refused).toMatchObject({ payment: { status: 'declined' }, orderStatus: 'pending', orderAttempts: 1 });
      expect(await recordOutcome(db, declined, charge, decline())).toMatchObject({ payment: { status: 'declined' } });

      // Outcomes of one attempt sent at once (its request's retry, the next payment, the reconciler), on as many of the
      // pool's connections: one is recorded, and counted once.
      const race = async (sessionId: string, outcome: Parameters<typeof recordOutcome>[2], counts: () => Counts) => {
        const raced = await attemptOf(sessionId);
        const answers = await Promise.all(Array.from({ length: 6 }, () => recordOutcome(db, raced, outcome, counts())));
        expect(answers.filter((answer) => answer.orderAttempts !== null)).toHaveLength(1);
      };
      await race('ses_raced_charge', { ...charge, transactionId: 'txn_raced' }, () =>
        velocity.counts([{ action: 'approval', subjects: { bin: '422222' }, detail: 'card_c' }]),
      );
      await race('ses_raced_decline', { kind: 'declined', reason: 'processor_declined' }, () =>
        velocity.counts([{ action: 'decline', subjects: { session: 'ses_raced_decline' }, detail: 'card_d' }]),
      );

      const counts = await db
        .selectFrom('velocity_counts')
        .select(['action', 'dimension', 'subject', 'detail', 'count'])
        .execute();
      expect(
        counts
          .map((row) => ({ ...row, count: Number(row.count) }))
          .sort((a, b) => a.dimension.localeCompare(b.dimension) || a.subject.localeCompare(b.subject)),
      ).toEqual([
        { action: 'approval', dimension: 'bin', subject: '411111', detail: 'card_a', count: 1 },
        { action: 'approval', dimension: 'bin', subject: '422222', detail: 'card_c', count: 1 },
        { action: 'decline', dimension: 'ip', subject: '10.0.0.9', detail: 'card_b', count: 1 },
        { action: 'decline', dimension: 'session', subject: 'ses_declined', detail: 'card_b', count: 1 },
        { action: 'decline', dimension: 'session', subject: 'ses_raced_decline', detail: 'card_d', count: 1 },
      ]);
    } finally {
      await cleanup();
    }
  });
});
