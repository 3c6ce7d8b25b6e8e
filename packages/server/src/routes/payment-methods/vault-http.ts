import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { requireBotcheck } from '../../botcheck/request-check.ts';
import type { BotcheckAction } from '../../botcheck/verifier.ts';
import type { AppContext } from '../../context.ts';
import { GatewayUnavailableError } from '../../gateway/gateway.ts';
import { PROBLEM_CONTENT_TYPE, ProblemError } from '../../http/problem.ts';
import { heldKeyRef } from '../../plugins/idempotency.ts';
import type { AddSavedMethodResult, VaultDeps } from '../../vault/saved-methods.ts';
import { cardSubjects, enforceBinSaves, enforceLimits, refuseTestedCard, type CardSubjects } from '../../velocity/guard.ts';
import { SHOP } from '../../velocity/shop-alert.ts';

// What the saved-method and subscription routes share: who may act, the gateway they act through, how refusals answer.

/** The signed-in shopper's account id; saved cards belong to accounts, never to guest sessions. */
export function signedInAccount(request: FastifyRequest): string {
  const accountId = request.kassaSession?.account_id ?? null;
  if (accountId === null) throw new ProblemError('not_signed_in');
  return accountId;
}

export function vaultDeps(ctx: AppContext): VaultDeps {
  if (ctx.gateway === null || ctx.vault === null) throw new ProblemError('gateway_not_configured');
  return { db: ctx.db, gateway: ctx.gateway, vault: ctx.vault };
}

/**
 * A new card about to be saved, so verified at the gateway (a card test of its own): counted against the account and
 * the IP as the save its Idempotency-Key names (sent again after a lost answer, it is still one save), and refused (429
 * `too_many_attempts`) past the card-save rules; then the bot-check (`botcheck`: the action
 * its token must be for), before any gateway call. Then the card itself, as the gateway describes the nonce: refused
 * when its declines (payments' or failed verifications') or its BIN's are past the rules that hold whatever account
 * or address a script rotates through, or when its BIN had too many new cards saved this hour (enforceBinSaves). Answers the card (null for a wallet), for countRefusedCard.
 */
export async function admitCardSave(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  accountId: string,
  nonce: string,
  botcheck: { action: BotcheckAction; token: string | undefined },
): Promise<CardSubjects | null> {
  const subjects = { account: accountId, ip: request.ip };
  // The key's hash: a short detail, whatever the key's length. The key is pinned to its request (nonce included).
  const save = createHash('sha256').update(heldKeyRef(request)).digest('hex').slice(0, 32);
  await enforceLimits(ctx.velocity, request, reply, 'card_save', subjects, ctx.config.velocity.cardSaves, save);
  await requireBotcheck(ctx, request, botcheck.action, botcheck.token);
  const cards = ctx.cards;
  const described = cards === null ? null : await withGateway(request, () => cards.describeNonce(nonce));
  if (described === null) return null;
  const card = cardSubjects(ctx.config.sessionSecret, described);
  await refuseTestedCard(ctx.velocity, request, reply, card, ctx.config.velocity.payments, ctx.config.velocity.binTesting);
  await enforceBinSaves(ctx.velocity, request, reply, card, ctx.config.velocity.cardSaves);
  return card;
}

/**
 * A card the gateway refused to save (failed verification, refused nonce): counted for the card-save failure rules;
 * a failed verification is also a decline of the card, its BIN and the shop (the rules on the card, the BIN rule and
 * the shop alert read payments' and saves' declines alike).
 */
export async function countRefusedCard(
  ctx: AppContext,
  request: FastifyRequest,
  accountId: string,
  kind: string,
  card: CardSubjects | null,
) {
  if (kind !== 'verification_failed' && kind !== 'invalid_nonce') return;
  await ctx.velocity.record('card_save_failure', { account: accountId, ip: request.ip });
  if (kind === 'verification_failed' && card !== null) await ctx.velocity.record('decline', { ...card, shop: SHOP }, card.card);
}

/** A card the gateway would not save -> its problem (final answers: the Idempotency-Key replays them). */
export function refusedCardProblem(result: Exclude<AddSavedMethodResult, { kind: 'saved' }>): ProblemError {
  switch (result.kind) {
    case 'duplicate':
      return new ProblemError('payment_method_duplicate');
    case 'already_saved':
      return new ProblemError('wallet_already_saved', { extensions: { paymentMethod: result.method } });
    case 'verification_failed':
      return new ProblemError('card_verification_failed', { extensions: { verification: result.verification } });
    case 'invalid_nonce':
      return new ProblemError('payment_method_invalid', { detail: result.message });
  }
}

/** A refusal that is the request's final answer: sent (so the Idempotency-Key replays it), not thrown. */
export function sendFinal(reply: FastifyReply, problem: ProblemError): FastifyReply {
  return reply.status(problem.status).type(PROBLEM_CONTENT_TYPE).send(problem.toBody());
}

/**
 * Runs a gateway use-case; an unreachable gateway is thrown as 502 `gateway_unavailable`, which releases the
 * Idempotency-Key so the same request may run again.
 */
export async function withGateway<T>(request: FastifyRequest, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof GatewayUnavailableError)) throw error;
    request.log.warn({ err: error, route: request.routeOptions.url }, 'gateway unavailable');
    throw new ProblemError('gateway_unavailable', { detail: 'The payment gateway did not answer. Try again.' });
  }
}
