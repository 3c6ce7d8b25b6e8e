import { z } from 'zod';
import { listPlans } from '../catalogue/plans.repository.ts';
import type { Db } from '../db/connect.ts';
import type { BilledSubscription, SubscriptionStatus, VaultGateway } from '../gateway/vault-gateway.ts';
import { fromDecimalString, moneySchema } from '../money.ts';
import { subscriptionBasics, subscriptionBasicsSchema } from '../subscriptions/subscriptions.ts';
import { type PageCursor, pageOf } from './page-cursor.ts';

/** A subscription as the merchant sees it: the gateway's record, its plan's name and the customer it bills. */
export const adminSubscriptionSchema = subscriptionBasicsSchema.extend({
  failureCount: z.number().int().describe('Charges failed in a row (a `Past Due` subscription is retried).'),
  balance: moneySchema.describe('What is owed after failed charges.'),
  customer: z
    .object({ email: z.string() })
    .nullable()
    .describe("Null when the gateway customer is not one of the shop's accounts."),
  lastEvent: z.string().nullable().describe('The last webhook the gateway sent about it (`subscription_went_past_due`, ...).'),
});
export type AdminSubscription = z.infer<typeof adminSubscriptionSchema>;

/**
 * A page of the subscriptions, asked of the gateway (it bills them and is their source of truth) after the cursor's
 * subscription, with the shop's names for plans and customers and the last webhook received about each.
 */
export async function listAdminSubscriptions(
  deps: { db: Db; vault: VaultGateway },
  filter: { status?: SubscriptionStatus; after?: PageCursor; limit: number },
): Promise<{ subscriptions: AdminSubscription[]; nextCursor: string | null }> {
  const { after, ...criteria } = filter;
  // One more than the page: whether there is a next page.
  const found = await deps.vault.searchSubscriptions({
    ...criteria,
    ...(after !== undefined ? { after: { createdAt: after.at, id: after.id } } : {}),
    limit: filter.limit + 1,
  });
  const { page, nextCursor } = pageOf(found, filter.limit, (subscription) => ({
    at: subscription.createdAt,
    id: subscription.id,
  }));
  return { subscriptions: await describeSubscriptions(deps.db, page), nextCursor };
}

export type CancelSubscriptionOutcome =
  | { kind: 'canceled'; subscription: AdminSubscription }
  | { kind: 'subscription_not_found' }
  | { kind: 'subscription_not_cancelable' };

/**
 * The merchant cancels a subscription at the gateway (`subscription.cancel`): it bills no more. Cancelling a canceled
 * one answers it as it is; an expired one has nothing left to cancel.
 */
export async function cancelAdminSubscription(
  deps: { db: Db; vault: VaultGateway },
  id: string,
): Promise<CancelSubscriptionOutcome> {
  const current = await deps.vault.findSubscription(id);
  if (current === null) return { kind: 'subscription_not_found' };
  if (current.status === 'Expired') return { kind: 'subscription_not_cancelable' };
  if (current.status !== 'Canceled') await deps.vault.cancelSubscription(id);
  const [billed] = await deps.vault.searchSubscriptions({ id, limit: 1 });
  if (billed === undefined) throw new Error(`subscription ${id} vanished at the gateway while it was canceled`);
  const [subscription] = await describeSubscriptions(deps.db, [billed]);
  if (subscription === undefined) throw new Error(`subscription ${id} was not described`);
  return { kind: 'canceled', subscription };
}

/** The gateway's subscriptions with the shop's names for their plans and customers and their last webhook. */
async function describeSubscriptions(db: Db, found: BilledSubscription[]): Promise<AdminSubscription[]> {
  if (found.length === 0) return [];
  const customerIds = [
    ...new Set(found.flatMap((subscription) => (subscription.customerId === null ? [] : [subscription.customerId]))),
  ];
  const [plans, accounts, states] = await Promise.all([
    listPlans(db),
    customerIds.length === 0
      ? []
      : db
          .selectFrom('accounts')
          .select(['email', 'gateway_customer_id'])
          .where('gateway_customer_id', 'in', customerIds)
          .execute(),
    db
      .selectFrom('subscription_states')
      .select(['id', 'last_event'])
      .where(
        'id',
        'in',
        found.map((subscription) => subscription.id),
      )
      .execute(),
  ]);
  return found.map((subscription) => {
    const basics = subscriptionBasics(
      subscription,
      plans.find((candidate) => candidate.id === subscription.planId),
    );
    const email = accounts.find((account) => account.gateway_customer_id === subscription.customerId)?.email;
    return {
      ...basics,
      failureCount: subscription.failureCount,
      balance: fromDecimalString(subscription.balance || '0', basics.price.currency),
      customer: email === undefined ? null : { email },
      lastEvent: states.find((state) => state.id === subscription.id)?.last_event ?? null,
    };
  });
}
