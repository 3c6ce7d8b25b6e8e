import { createHmac } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PaymentRow } from '../db/schema.ts';
import type { CardDescription } from '../gateway/card-lookup.ts';
import { ProblemError } from '../http/problem.ts';
import type { Owner } from '../orders/order.ts';
import type { BinTestingRule } from './limits.ts';
import { SHOP } from './shop-alert.ts';
import type { Counts, Exceeded, Limit, Recorded, Subjects, Tally, Velocity, VelocityAction } from './velocity.ts';

/**
 * Counts this request's `action` against its subjects, then refuses it (429 `too_many_attempts`, Retry-After, the
 * rule named) when a limit is past; the refusal is recorded for the merchant. Returns what it counted. `detail`: what
 * the action is (the `distinct` rules count each once, however often it is sent).
 */
export async function enforceLimits(
  velocity: Velocity,
  request: FastifyRequest,
  reply: FastifyReply,
  action: VelocityAction,
  subjects: Subjects,
  limits: readonly Limit[],
  detail: string | null = null,
): Promise<Recorded> {
  const recorded = await velocity.record(action, subjects, detail);
  await refuseIfExceeded(velocity, request, reply, await velocity.exceeded(limits, subjects, [action]));
  return recorded;
}

/**
 * A card as the velocity rules count it: keyed hashes of what the gateway says of it (never the number), with and
 * without its expiry, and its BIN. The gateway names a number (uniqueNumberIdentifier) only in a sale's answer, after
 * the charge: before it, the BIN and last four are what identify a number whatever expiry a script tries with it.
 */
export type CardSubjects = { card: string; card_digits: string; bin: string };

const keyed = (secret: string, text: string) => createHmac('sha256', secret).update(text).digest('hex').slice(0, 32);

/** The subjects a card is counted as (CardSubjects). */
export function cardSubjects(secret: string, card: CardDescription): CardSubjects {
  return {
    card: keyed(secret, `card:${card.bin}:${card.lastFour}:${card.expirationMonth}:${card.expirationYear}`),
    card_digits: keyed(secret, `digits:${card.bin}:${card.lastFour}`),
    bin: card.bin,
  };
}

/**
 * What a payment attempt's outcome is counted against, stored on the attempt when it is made (payments'
 * `velocity_subjects`): its payer (order, session, account, IP) and its card (CardSubjects) when the gateway
 * described it. So a decline is counted against its card whichever request or job finishes the attempt (its own
 * retry, the next payment for its order, the reconciler), not only by the request that described the card.
 */
export function outcomeSubjects(payer: Subjects, card: CardSubjects | null): string {
  return JSON.stringify({ ...payer, ...card });
}

/**
 * What an attempt's outcome is counted as, written with the outcome (payments.repository.ts recordOutcome: in its
 * transaction or its statement, so once): a decline against the subjects it was made with (outcomeSubjects) and the
 * shop, its card in the detail for the BIN rule's distinct cards; an approval against its card's BIN. An attempt made
 * without them (before 0016) counts its decline against its order and the shop. Null: nothing to count.
 */
export function outcomeCounter(velocity: Velocity) {
  return (payment: Pick<PaymentRow, 'status' | 'order_id'>, countedAs: string | null): Counts | null => {
    // Written by outcomeSubjects.
    const subjects: Subjects = countedAs === null ? { order: payment.order_id } : JSON.parse(countedAs);
    if (payment.status === 'declined')
      return velocity.counts([{ action: 'decline', subjects: { ...subjects, shop: SHOP }, detail: subjects.card ?? null }]);
    if (payment.status === 'succeeded' && subjects.card !== undefined && subjects.bin !== undefined)
      return velocity.counts([{ action: 'approval', subjects: { bin: subjects.bin }, detail: subjects.card }]);
    return null;
  };
}

const CARD_DIMENSIONS = new Set(['card', 'card_digits', 'bin']);
/** The rules on one card (with or without its expiry), as against those on its BIN. */
const ON_ONE_CARD = new Set(['card', 'card_digits']);
/** A rule on the card itself, or on the cards a payer used: it can be judged only once the card is known. */
const isCardRule = (limit: Limit): boolean => CARD_DIMENSIONS.has(limit.dimension) || limit.action === 'card_used';

/** The rules of `limits` checked before the card is known (the card rules are recordCardUse's and cardLimitsRefusal's). */
export function rulesBeforeCard(limits: readonly Limit[]): Limit[] {
  return limits.filter((limit) => !isCardRule(limit));
}

/**
 * A payment's card, once the gateway has described its nonce: counted against the card, and as one of the cards of the
 * session, account and IP (not against its BIN: no rule counts a BIN's attempts, and every payment of a popular BIN
 * wrote the same row; the BIN rule counts its declines and approvals with the outcomes, outcomeCounter). Committed
 * before enforceCardLimits reads the counts: on PostgreSQL a transaction does not see another's uncommitted counts, so
 * payments sent at once with different cards would each see only their own and more cards than
 * distinct_cards_per_ip_per_hour would reach the gateway.
 */
export async function recordCardUse(velocity: Velocity, card: CardSubjects, payer: Subjects): Promise<void> {
  await velocity.recordAll([
    { action: 'payment', subjects: { card: card.card } },
    { action: 'card_used', subjects: { session: payer.session, account: payer.account, ip: payer.ip }, detail: card.card },
  ]);
}

/**
 * A payment's card, counted (recordCardUse): refused (429, noted, Retry-After set) past the card rules of `limits`
 * (the others were checked first) or the BIN rule.
 */
export async function enforceCardLimits(
  velocity: Velocity,
  request: FastifyRequest,
  reply: FastifyReply,
  card: CardSubjects,
  payer: Subjects,
  limits: readonly Limit[],
  binRule: BinTestingRule,
): Promise<void> {
  const cardRules = limits.filter(isCardRule);
  const { exceeded, also } = await velocity.exceededAnd(
    cardRules,
    { ...payer, ...card },
    ['payment', 'card_used'],
    [binDeclines(card.bin, binRule)],
  );
  await refuseIfExceeded(velocity, request, reply, exceeded ?? (await binUnderTest(velocity, card.bin, binRule, also[0])));
}

/**
 * A card about to be saved (verified at the gateway): refused when the decline rules on the card itself among `limits`
 * (the payments', e.g. declines_per_card_per_hour: a payment's decline and a failed verification count alike) or the
 * BIN rule say it is being tested. Nothing is recorded: a save is counted by its own rules (card_save).
 */
export async function refuseTestedCard(
  velocity: Velocity,
  request: FastifyRequest,
  reply: FastifyReply,
  card: CardSubjects,
  limits: readonly Limit[],
  binRule: BinTestingRule,
): Promise<void> {
  const onTheCard = limits.filter((limit) => ON_ONE_CARD.has(limit.dimension) && limit.action === 'decline');
  const { exceeded, also } = await velocity.exceededAnd(onTheCard, card, [], [binDeclines(card.bin, binRule)]);
  await refuseIfExceeded(velocity, request, reply, exceeded ?? (await binUnderTest(velocity, card.bin, binRule, also[0])));
}

/**
 * A card about to be saved, counted (as a distinct card) against its BIN shop-wide, then refused past the rules of
 * `limits` on the BIN (card_saves_per_bin_per_hour): they hold whatever account or address a script saves from.
 */
export async function enforceBinSaves(
  velocity: Velocity,
  request: FastifyRequest,
  reply: FastifyReply,
  card: CardSubjects,
  limits: readonly Limit[],
): Promise<void> {
  await velocity.record('card_save', { bin: card.bin }, card.card);
  await refuseIfExceeded(velocity, request, reply, await velocity.exceeded(limits, { bin: card.bin }, ['card_save']));
}

/**
 * How many declined cards of a BIN the BIN rule counts at most, as a multiple of the cards it needs: each count reads
 * a bounded number of cards, however many a BIN had in the hour (an attack on it, or a popular one).
 */
const BIN_RULE_DECLINES_COUNTED = 100;

/** The BIN rule's first count: the BIN's distinct declined cards, bounded (BIN_RULE_DECLINES_COUNTED). */
function binDeclines(bin: string, rule: BinTestingRule): Tally & { distinctUpTo: number } {
  const upTo = rule.minDeclinedCards * BIN_RULE_DECLINES_COUNTED;
  return { action: 'decline', dimension: 'bin', subject: bin, windowMs: rule.windowMs, distinctUpTo: upTo };
}

/**
 * The BIN rule (BinTestingRule): its distinct declined cards against those approved. Only answers count, so cards
 * refused before the gateway (or by the bot-check) cannot dilute the share; diluting it takes cards that are approved.
 * Both counts are bounded: declines up to BIN_RULE_DECLINES_COUNTED times the rule's minimum (1,000 cards an hour by
 * default; past it the share is judged on that many), approvals up to the first one that brings the share under the
 * rule's (more change nothing). `declinedCounted`: the first count (binDeclines), when the caller made it already.
 */
export async function binUnderTest(
  velocity: Velocity,
  bin: string,
  rule: BinTestingRule,
  declinedCounted?: number,
): Promise<Exceeded | null> {
  const { action, dimension, windowMs, distinctUpTo } = binDeclines(bin, rule);
  const declined = declinedCounted ?? (await velocity.countDistinct(action, dimension, bin, windowMs, distinctUpTo));
  if (declined < rule.minDeclinedCards) return null;
  // Held back while declined >= share * (declined + approved): approvals past declined * (1 - share) / share let it be.
  const approvalsHeldBack = Math.floor((declined * (1 - rule.minDeclinedShare)) / rule.minDeclinedShare);
  const approved = await velocity.countDistinct('approval', 'bin', bin, rule.windowMs, approvalsHeldBack + 1);
  if (declined < rule.minDeclinedShare * (declined + approved)) return null;
  const limit: Limit = {
    rule: rule.rule,
    action: 'decline',
    dimension: 'bin',
    max: rule.minDeclinedCards,
    windowMs: rule.windowMs,
    distinct: true,
  };
  // The share falls as declines age out; a quarter of the window is a fair wait to name.
  return { limit, subject: bin, retryAfterSeconds: Math.ceil(rule.windowMs / 4000) };
}

async function refuseIfExceeded(
  velocity: Velocity,
  request: FastifyRequest,
  reply: FastifyReply,
  exceeded: Exceeded | null,
): Promise<void> {
  const refusal = await refusalOf(velocity, request, reply, exceeded);
  if (refusal !== null) throw refusal;
}

/** The answer to a rule exceeded (429 `too_many_attempts`, Retry-After, the rule named), noted for the merchant. */
async function refusalOf(
  velocity: Velocity,
  request: FastifyRequest,
  reply: FastifyReply,
  exceeded: Exceeded | null,
): Promise<ProblemError | null> {
  if (exceeded === null) return null;
  await velocity.noteRefusal(exceeded, request.log);
  void reply.header('retry-after', String(exceeded.retryAfterSeconds));
  return new ProblemError('too_many_attempts', {
    extensions: { rule: exceeded.limit.rule, retryAfterSeconds: exceeded.retryAfterSeconds },
  });
}

/** What a payment attempt is counted against: its order, the session, the account when signed in, the client IP. */
export function paymentSubjects(request: FastifyRequest, owner: Owner, orderId: string): Subjects {
  return {
    order: orderId,
    session: owner.sessionId,
    ip: request.ip,
    ...(owner.accountId === null ? {} : { account: owner.accountId }),
  };
}
