import { createHash } from 'node:crypto';
import { z } from 'zod';
import { findPlan, listPlans } from '../catalogue/plans.repository.ts';
import type { Plan } from '../catalogue/plans.repository.ts';
import { SUBSCRIPTION_STATUSES } from '../gateway/vault-gateway.ts';
import type { GatewaySubscription, VaultedMethod, VerificationFailure } from '../gateway/vault-gateway.ts';
import { fromDecimalString, moneySchema, toDecimalString } from '../money.ts';
import { addSavedMethod, findOwnedMethod, listVaulted } from '../vault/saved-methods.ts';
import type { VaultDeps } from '../vault/saved-methods.ts';

/** What the shopper and the merchant both see of a subscription: the gateway's record with the shop's plan. */
export const subscriptionBasicsSchema = z.object({
  id: z.string(),
  planId: z.string(),
  planName: z.string(),
  status: z.enum(SUBSCRIPTION_STATUSES).describe("The gateway's status, as the provider names it."),
  price: moneySchema,
  nextBillingDate: z.string().nullable().describe('YYYY-MM-DD; null once canceled.'),
  createdAt: z.string(),
});

export const subscriptionSchema = subscriptionBasicsSchema.extend({
  paymentMethod: z.object({ id: z.string(), brand: z.string(), lastFour: z.string() }),
});
export type SubscriptionSummary = z.infer<typeof subscriptionSchema>;

/** The gateway's subscription named by the shop's plan (its id if the plan is gone), its price in minor units. */
export function subscriptionBasics(
  subscription: GatewaySubscription,
  plan: Plan | undefined,
): z.infer<typeof subscriptionBasicsSchema> {
  return {
    id: subscription.id,
    planId: subscription.planId,
    planName: plan?.name ?? subscription.planId,
    status: subscription.status,
    price: fromDecimalString(subscription.price, plan?.price.currency ?? 'EUR'),
    nextBillingDate: subscription.status === 'Canceled' ? null : subscription.nextBillingDate,
    createdAt: subscription.createdAt,
  };
}

function toSummary(
  subscription: GatewaySubscription,
  card: Pick<VaultedMethod, 'token' | 'brand' | 'lastFour'>,
  plan: Plan | undefined,
): SubscriptionSummary {
  return {
    ...subscriptionBasics(subscription, plan),
    paymentMethod: { id: card.token, brand: card.brand, lastFour: card.lastFour },
  };
}

/** The shopper's subscriptions (the gateway lists them on the cards they charge), newest first. */
export async function listSubscriptions(deps: VaultDeps, accountId: string): Promise<SubscriptionSummary[]> {
  const [cards, plans] = await Promise.all([listVaulted(deps, accountId), listPlans(deps.db)]);
  const byId = new Map(plans.map((plan) => [plan.id, plan]));
  return cards
    .flatMap((card) => card.subscriptions.map((subscription) => toSummary(subscription, card, byId.get(subscription.planId))))
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

/**
 * The gateway id of the subscription a request creates, derived from its Idempotency-Key: a retry whose first answer
 * was lost asks for the same id and gets the subscription the first call made instead of a second one.
 */
export function subscriptionIdFor(idempotencyRef: string): string {
  return `ks_${createHash('sha256').update(idempotencyRef).digest('hex').slice(0, 30)}`;
}

export type SubscribeResult =
  | { kind: 'created'; subscription: SubscriptionSummary }
  | { kind: 'plan_not_found' }
  | { kind: 'payment_method_not_found' }
  | { kind: 'duplicate' }
  | { kind: 'verification_failed'; verification: VerificationFailure }
  | { kind: 'invalid_nonce'; message: string }
  | { kind: 'declined'; processorResponseCode: string | null; processorResponseText: string | null };

/**
 * Subscribes the shopper to a plan with a saved card, or with a new card saved on the way (verified, not a duplicate; a
 * wallet saved before pays as the saved one).
 */
export async function subscribe(
  deps: VaultDeps,
  accountId: string,
  input: { planId: string; paymentMethodId?: string | undefined; nonce?: string | undefined; idempotencyRef: string },
): Promise<SubscribeResult> {
  const plan = await findPlan(deps.db, input.planId);
  if (plan === undefined) return { kind: 'plan_not_found' };
  let card: Pick<VaultedMethod, 'token' | 'brand' | 'lastFour'>;
  if (input.nonce !== undefined) {
    const added = await addSavedMethod(deps, accountId, { nonce: input.nonce, makeDefault: false });
    // A wallet saved before is the one this subscription charges.
    if (added.kind !== 'saved' && added.kind !== 'already_saved') return added;
    card = { token: added.method.id, brand: added.method.brand, lastFour: added.method.lastFour };
  } else {
    const owned = input.paymentMethodId === undefined ? null : await findOwnedMethod(deps, accountId, input.paymentMethodId);
    if (owned === null) return { kind: 'payment_method_not_found' };
    card = owned;
  }
  const outcome = await deps.vault.subscribe({
    id: subscriptionIdFor(input.idempotencyRef),
    planId: plan.id,
    paymentMethodToken: card.token,
    price: toDecimalString(plan.price),
  });
  if (outcome.kind === 'declined') return outcome;
  return { kind: 'created', subscription: toSummary(outcome.subscription, card, plan) };
}

/** Cancels one of the shopper's subscriptions; cancelling a canceled one answers it as it is. */
export async function cancelSubscription(deps: VaultDeps, accountId: string, id: string): Promise<SubscriptionSummary | null> {
  const cards = await listVaulted(deps, accountId);
  const card = cards.find((c) => c.subscriptions.some((s) => s.id === id));
  if (card === undefined) return null;
  const canceled = await deps.vault.cancelSubscription(id);
  return toSummary(canceled, card, await findPlan(deps.db, canceled.planId));
}
