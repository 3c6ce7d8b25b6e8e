import { z } from 'zod';
import { listPlans } from '../catalogue/plans.repository.ts';
import type { Db } from '../db/connect.ts';
import { SUBSCRIPTION_STATUSES } from '../gateway/vault-gateway.ts';
import type { SubscriptionStatus, VaultGateway } from '../gateway/vault-gateway.ts';
import { fromDecimalString, moneySchema } from '../money.ts';

/** A subscription as the merchant sees it: the gateway's record, its plan's name and the customer it bills. */
export const adminSubscriptionSchema = z.object({
  id: z.string(),
  planId: z.string(),
  planName: z.string(),
  status: z.enum(SUBSCRIPTION_STATUSES),
  price: moneySchema,
  nextBillingDate: z.string().nullable(),
  createdAt: z.string(),
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
 * The subscriptions, asked of the gateway (it bills them and is their source of truth), with the shop's names for
 * plans and customers and the last webhook received about each.
 */
export async function listAdminSubscriptions(
  deps: { db: Db; vault: VaultGateway },
  filter: { status?: SubscriptionStatus; limit: number },
): Promise<AdminSubscription[]> {
  const found = await deps.vault.searchSubscriptions(filter);
  if (found.length === 0) return [];
  const customerIds = [
    ...new Set(found.flatMap((subscription) => (subscription.customerId === null ? [] : [subscription.customerId]))),
  ];
  const [plans, accounts, states] = await Promise.all([
    listPlans(deps.db),
    customerIds.length === 0
      ? []
      : deps.db
          .selectFrom('accounts')
          .select(['email', 'gateway_customer_id'])
          .where('gateway_customer_id', 'in', customerIds)
          .execute(),
    deps.db
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
    const plan = plans.find((candidate) => candidate.id === subscription.planId);
    const currency = plan?.price.currency ?? 'EUR';
    const email = accounts.find((account) => account.gateway_customer_id === subscription.customerId)?.email;
    return {
      id: subscription.id,
      planId: subscription.planId,
      planName: plan?.name ?? subscription.planId,
      status: subscription.status,
      price: fromDecimalString(subscription.price, currency),
      nextBillingDate: subscription.status === 'Canceled' ? null : subscription.nextBillingDate,
      createdAt: subscription.createdAt,
      failureCount: subscription.failureCount,
      balance: fromDecimalString(subscription.balance || '0', currency),
      customer: email === undefined ? null : { email },
      lastEvent: states.find((state) => state.id === subscription.id)?.last_event ?? null,
    };
  });
}
