import type { BotcheckCheck } from '../botcheck/request-check.ts';
import { syncWrites } from '../db/connect.ts';
import type { Db } from '../db/connect.ts';
import type { PaymentRow } from '../db/schema.ts';
import { GatewayUnavailableError } from '../gateway/gateway.ts';
import type { PaymentGateway, SaleResult } from '../gateway/gateway.ts';
import type { Counts } from '../velocity/velocity.ts';
import { toDecimalString } from '../money.ts';
import type { Order, Owner } from '../orders/order.ts';
import {
  compareAttempts,
  findOrderAttempts,
  findOwnedOrderRow,
  findOwnedOrderWithLines,
  toOrder,
} from '../orders/orders.repository.ts';
import type { OrderWithLines } from '../orders/orders.repository.ts';
import { isFinalPaymentStatus, paymentStatusSchema } from './payment.ts';
import type { AttemptOutcome } from './payment.ts';
import { ensureGatewayCustomer } from '../accounts/accounts.service.ts';
import { findAttempts, findLivePayment, insertPendingPayment, leaseAttempt, recordOutcome } from './payments.repository.ts';
import type { AnswerSaving, RecordedOutcome } from './payments.repository.ts';
import type { KeyAnswer } from './idempotency.repository.ts';

export interface PayOrderDeps {
  db: Db;
  gateway: PaymentGateway;
  /** Verifies and spends the request's bot-check token (bound to its session, for `payment`). */
  checkBotcheck: BotcheckCheck;
  /** The merchant account new attempts are charged to (unset: the gateway's default); stored on each attempt. */
  merchantAccountId: string | null;
  /** Orders above this total (minor units) are charged with `threeDSecure.required`; null: never. */
  threeDSecureRequiredAbove: number | null;
  /**
   * A pending attempt untouched for this long lost its request (a crash, a time-out), and another payment request may
   * finish it (config.ts staleAttemptMsFor: longer than a request can hold it).
   */
  staleAttemptMs: number;
  /** Called before a NEW attempt (never for a retry of one already made): throws to refuse it (velocity rules). */
  admitNewAttempt?: () => Promise<void>;
  /**
   * Called once a new attempt passed the bot-check, before the charge: the rules on the card, which the gateway
   * describes (a gateway call, so never made for a request without a valid token). Throws to refuse it, once the
   * card's counts and the refusal's note are written (velocity/guard.ts recordCardUse, enforceCardLimits).
   */
  admitCard?: () => Promise<void>;
  /**
   * What the velocity rules count a new attempt's outcome against (the payer, the card once admitCard described it),
   * stored on the attempt when it is inserted (`velocity_subjects`).
   */
  countedAs?: () => string;
  /**
   * What an attempt's outcome is counted as (the velocity rules' declines and approvals), written with the outcome
   * (recordOutcome), so once, against what the attempt was stored with (`countedAs`, null for an attempt made without):
   * whichever request or job finishes it, its own retry, the next payment for its order or the reconciler, counts it
   * alike.
   */
  countOutcome?: (payment: Pick<PaymentRow, 'status' | 'order_id'>, countedAs: string | null) => Counts | null;
  /**
   * The request's answer to a finished attempt, as its Idempotency-Key saves it: given, the answer to the request's
   * own attempt is made before its outcome is written and saved with it (payments.repository.ts AnswerSaving), and the
   * result carries it (`saved`) to be sent as saved.
   */
  answerOf?: (result: Finished) => KeyAnswer;
}

export interface PayOrderInput {
  orderId: string;
  owner: Owner;
  nonce: string;
  deviceData?: string;
  botcheckToken: string;
  /** "Save card" (signed-in shoppers only; a guest's request to save is ignored: guests never save). */
  saveCard?: boolean;
  /** Scope+key of the request's Idempotency-Key: a retry with it resumes an unfinished attempt. */
  idempotencyRef: string;
}

/** `saved`: the request's answer, saved with the outcome (answerOf). */
export type Finished =
  | { kind: 'succeeded'; payment: PaymentRow; order: Order; saved?: KeyAnswer }
  | { kind: 'declined'; payment: PaymentRow; order: Order; saved?: KeyAnswer };

export type PayOrderResult =
  | Finished
  | { kind: 'order_not_found' }
  | { kind: 'order_already_paid' }
  | { kind: 'payment_in_progress' }
  | { kind: 'botcheck_failed'; reason: string };

/** The key the gateway deduplicates on: derived from the attempt, so a resumed attempt cannot charge twice. */
export function gatewayRequestKey(payment: Pick<PaymentRow, 'id'>): string {
  return `kassa-${payment.id}`;
}

/**
 * Pays an order: the amount is the order's, the attempt (with its nonce and merchant account) is recorded before the
 * gateway is called, the gateway call runs outside any transaction, and the outcome is written in one transaction
 * with the order's status. An attempt whose outcome was lost stays pending and is finished by sending its own request
 * again under its own gateway request key, so the gateway answers its first outcome instead of charging twice: by a
 * retry with the same Idempotency-Key, or, once stale, by the next payment request for the order. One request at a
 * time holds an attempt (a lease on `updated_at`).
 */
export async function payOrder(deps: PayOrderDeps, input: PayOrderInput, now: Date = new Date()): Promise<PayOrderResult> {
  const order = await findOwnedOrderWithLines(deps.db, input.orderId, input.owner);
  if (order === undefined) return { kind: 'order_not_found' };
  const { row: orderRow } = order;

  const { all: attemptsBefore, own, live } = await findAttempts(deps.db, order, input.idempotencyRef);
  // This key's own attempt, finished by another request before this one's answer was saved: its answer is that one,
  // with the order read again (that outcome may have been recorded after the read above: paid, not still pending).
  if (own !== undefined && own.status !== 'pending') {
    const current = (await findOwnedOrderRow(deps.db, orderRow.id, input.owner)) ?? orderRow;
    return finished(deps, { ...order, row: current }, { payment: own, orderStatus: null, orderAttempts: null });
  }
  // Paid, or paid and given back (refunded, voided): never charged again.
  if (orderRow.status !== 'pending') return { kind: 'order_already_paid' };

  if (live?.status === 'pending') {
    // The same request again (its Idempotency-Key pins the nonce, and it passed the bot-check), or a stale attempt.
    const mine = live.idempotency_ref === input.idempotencyRef;
    if (!mine && now.getTime() - Date.parse(live.updated_at) < deps.staleAttemptMs) return { kind: 'payment_in_progress' };
    const leased = await leaseAttempt(deps.db, live, now);
    if (leased === undefined) return { kind: 'payment_in_progress' };
    const resent = await chargeAttempt(
      deps,
      leased,
      { resend: true },
      mine ? answerSaving(deps, order, attemptsBefore, leased) : undefined,
    );
    const outcome = await finished(deps, order, resent, attemptsBefore);
    if (mine) return outcome;
    if (outcome.kind === 'succeeded') return { kind: 'order_already_paid' };
  }

  await deps.admitNewAttempt?.();
  const verdict = await deps.checkBotcheck(input.botcheckToken);
  if (!verdict.ok) return { kind: 'botcheck_failed', reason: verdict.reason };
  await deps.admitCard?.();
  const vaultCustomerId =
    input.saveCard === true && input.owner.accountId !== null
      ? await ensureGatewayCustomer(deps.db, deps.gateway, input.owner.accountId)
      : null;
  // One statement, no transaction: the card rules read counts already committed, and the unique index payments_order
  // (0021) lets one pending-or-succeeded attempt per order in.
  const payment = await insertPendingPayment(deps.db, {
    orderId: orderRow.id,
    amount: { amount: orderRow.total_amount, currency: orderRow.currency },
    idempotencyRef: input.idempotencyRef,
    nonce: input.nonce,
    deviceData: input.deviceData ?? null,
    merchantAccountId: deps.merchantAccountId,
    threeDSecureRequired: deps.threeDSecureRequiredAbove !== null && orderRow.total_amount > deps.threeDSecureRequiredAbove,
    vaultCustomerId,
    velocitySubjects: deps.countedAs?.() ?? null,
  });
  if (payment === undefined) {
    const winner = await findLivePayment(deps.db, orderRow.id);
    return winner?.status === 'succeeded' ? { kind: 'order_already_paid' } : { kind: 'payment_in_progress' };
  }
  // On disk before the gateway can charge: a power cut must not leave a charge whose attempt the database forgot.
  await syncWrites(deps.db);
  const saving = answerSaving(deps, order, attemptsBefore, payment);
  return finished(deps, order, await chargeAttempt(deps, payment, { resend: false }, saving), attemptsBefore);
}

/**
 * The request's answer to `attempt`'s outcome, made before the outcome is written (AnswerSaving): its order paid by a
 * charge (pending after a decline) with the attempts read at the request's start and this one. None when those may not
 * be all the order's attempts then, or not as they were read (one of them still pending).
 */
function answerSaving(
  deps: PayOrderDeps,
  order: OrderWithLines,
  attemptsBefore: readonly PaymentRow[],
  attempt: PaymentRow,
): AnswerSaving | undefined {
  const { answerOf } = deps;
  if (answerOf === undefined) return undefined;
  const others = attemptsBefore.filter((other) => other.id !== attempt.id);
  if (others.some((other) => !isFinalPaymentStatus(paymentStatusSchema.parse(other.status)))) return undefined;
  return {
    orderAttempts: others.length + 1,
    answer: (payment) => {
      const attempts = [...others, payment].sort(compareAttempts);
      try {
        return answerOf(finishedAs(order, payment, payment.status === 'succeeded' ? 'paid' : 'pending', attempts));
      } catch {
        // The outcome is written all the same; the answer fails as it would have, at its send.
        return undefined;
      }
    },
  };
}

/**
 * Sends a pending attempt's own request to the gateway and records what its answer means; used by payment requests and
 * by the reconciler (jobs/). `resend`: the request may have reached the gateway before (its answer was lost). An
 * outcome this cannot know is thrown (GatewayUnavailableError): the attempt stays pending for a later resend.
 */
export async function sendAttempt(
  deps: Pick<PayOrderDeps, 'db' | 'gateway' | 'countOutcome'>,
  payment: PaymentRow,
  { resend }: { resend: boolean },
): Promise<PaymentRow> {
  return (await chargeAttempt(deps, payment, { resend })).payment;
}

/**
 * sendAttempt, with the order's status after the outcome (RecordedOutcome) for the payment request's answer, and what
 * `countOutcome` makes of the outcome and what the attempt was stored with counted with it.
 */
async function chargeAttempt(
  deps: Pick<PayOrderDeps, 'db' | 'gateway' | 'countOutcome'>,
  payment: PaymentRow,
  { resend }: { resend: boolean },
  saving?: AnswerSaving,
): Promise<RecordedOutcome> {
  const result = await deps.gateway.sale({
    amount: toDecimalString({ amount: payment.amount, currency: payment.currency }),
    nonce: payment.nonce,
    ...(payment.device_data !== null ? { deviceData: payment.device_data } : {}),
    ...(payment.merchant_account_id !== null ? { merchantAccountId: payment.merchant_account_id } : {}),
    ...(payment.vault_customer_id !== null ? { vaultCustomerId: payment.vault_customer_id } : {}),
    ...(payment.three_d_secure_required === 1 ? { threeDSecureRequired: true } : {}),
    orderId: payment.order_id,
    requestKey: gatewayRequestKey(payment),
  });
  const outcome = await outcomeOf(deps.gateway, payment, result, resend);
  const status = outcome.kind === 'succeeded' ? 'succeeded' : 'declined';
  // `payment` as it was pending: the outcome's record clears velocity_subjects.
  const counts = deps.countOutcome?.({ status, order_id: payment.order_id }, payment.velocity_subjects) ?? null;
  return recordOutcome(deps.db, payment, outcome, counts, saving);
}

/** What the gateway's answer to an attempt's sale means: a charge, a decline, or (thrown) an outcome not known. */
export async function outcomeOf(
  gateway: PaymentGateway,
  payment: PaymentRow,
  result: SaleResult,
  resend: boolean,
): Promise<AttemptOutcome> {
  switch (result.kind) {
    case 'charged':
      // The amount means nothing in another currency: take the charge back before anyone is billed.
      if (result.currency !== payment.currency) return voidCurrencyMismatch(gateway, payment, result);
      return {
        kind: 'succeeded',
        transactionId: result.transactionId,
        paymentMethodType: result.paymentMethodType,
        card: result.card,
        threeDSecure: result.threeDSecure,
      };
    case 'declined':
      return result;
    case 'refused':
      // The same request key with another request, or still in flight: the first request's outcome is not known here.
      if (result.reason === 'request_key_conflict')
        throw new GatewayUnavailableError(`gateway request key conflict (${result.codes.join(', ')}): outcome unknown`);
      // A resend whose first request may have used the nonce: "already used" says nothing of that first outcome.
      if (resend)
        throw new GatewayUnavailableError(
          `a resent sale was refused (${result.codes.join(', ') || result.message}): the first request's outcome is unknown`,
        );
      // Refused before any processor saw it (a used or unknown nonce): a decline the shopper can act on.
      return { kind: 'declined', reason: 'gateway_rejected', processorResponseText: result.message };
    case 'undecided':
      // It may still become a charge: never a decline.
      throw new GatewayUnavailableError(`sale ${result.transactionId} answered with status ${result.status}: outcome unknown`);
  }
}

/**
 * Voids a charge made in the wrong currency. Only a transaction the gateway confirms voided is a decline; otherwise the
 * outcome is unknown (thrown), so the attempt stays pending and no second card is charged.
 */
async function voidCurrencyMismatch(
  gateway: PaymentGateway,
  payment: PaymentRow,
  charge: Extract<SaleResult, { kind: 'charged' }>,
): Promise<AttemptOutcome> {
  // Its own request key: a repeated void (a resend of the sale) replays the first void's answer.
  const voided = await gateway.voidTransaction(charge.transactionId, { requestKey: `${gatewayRequestKey(payment)}-void` });
  if (voided.kind === 'refused') {
    const status = await gateway.transactionStatus(charge.transactionId);
    if (status !== 'voided') {
      throw new GatewayUnavailableError(
        `sale ${charge.transactionId} charged ${charge.currency} for an order in ${payment.currency} and could not be voided (${voided.message}); it is ${status}`,
      );
    }
  }
  const text = `charged in ${charge.currency} for an order in ${payment.currency}; voided`;
  return {
    kind: 'declined',
    reason: 'currency_mismatch',
    transactionId: charge.transactionId,
    paymentMethodType: charge.paymentMethodType,
    processorResponseText: text,
  };
}

/**
 * The answer: the attempt, and its order as read by the request (once, but for an attempt another request finished)
 * with the status the outcome left it in (`orderStatus`: null when nothing was recorded, the order as read), and its
 * attempts: those read at the request's start with this outcome, or read again (attemptsAt).
 */
async function finished(
  deps: PayOrderDeps,
  order: OrderWithLines,
  recorded: RecordedOutcome | { payment: PaymentRow; orderStatus: null; orderAttempts: null },
  attemptsBefore?: readonly PaymentRow[],
): Promise<Finished> {
  const { payment, orderStatus } = recorded;
  const status = orderStatus ?? order.row.status;
  const attempts = attemptsAt(recorded, attemptsBefore) ?? (await findOrderAttempts(deps.db, order.row.id));
  const result = finishedAs(order, payment, status, attempts);
  return 'saved' in recorded && recorded.saved !== undefined ? { ...result, saved: recorded.saved } : result;
}

/** The answer of an attempt: `order` with `status` and `attempts`. */
function finishedAs(order: OrderWithLines, payment: PaymentRow, status: string, attempts: readonly PaymentRow[]): Finished {
  const answer = toOrder({ row: { ...order.row, status }, lines: order.lines }, attempts);
  return payment.status === 'succeeded'
    ? { kind: 'succeeded', payment, order: answer }
    : { kind: 'declined', payment, order: answer };
}

/**
 * The order's attempts when this outcome was recorded, oldest first, from those read at the request's start, or
 * undefined if they may not be all (then they are read again). They are when every other attempt read then was final
 * (no move left from its status: nothing changes it since) and the outcome's statement counted as many as there are
 * with this one: none was made meanwhile by another Idempotency-Key (payments are never deleted).
 */
function attemptsAt(
  { payment, orderAttempts }: { payment: PaymentRow; orderAttempts: number | null },
  attemptsBefore: readonly PaymentRow[] | undefined,
): PaymentRow[] | undefined {
  if (attemptsBefore === undefined || orderAttempts === null) return undefined;
  const others = attemptsBefore.filter((attempt) => attempt.id !== payment.id);
  if (others.length + 1 !== orderAttempts) return undefined;
  if (others.some((attempt) => !isFinalPaymentStatus(paymentStatusSchema.parse(attempt.status)))) return undefined;
  return [...others, payment].sort(compareAttempts);
}
