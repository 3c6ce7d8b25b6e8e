import type { FastifyBaseLogger } from 'fastify';
import { DEMO_PLANS } from '../catalogue/demo-catalogue.ts';
import { findAccountByEmail } from '../accounts/accounts.repository.ts';
import { toDecimalString } from '../money.ts';
import { addSavedMethod, listVaulted } from './saved-methods.ts';
import type { VaultDeps } from './saved-methods.ts';

/** The gateway's test nonce for a Visa ending in 1881 (gateway.md "Fake nonces"): no card data is involved. */
const DEMO_CARD_NONCE = 'fake-valid-visa-nonce';

/**
 * The demo shopper starts with a saved card paying the coffee-beans plan, so a subscription's lock on its card is
 * visible at once. Only a shopper with no saved card at all gets them (a restart changes nothing; what the shopper
 * deleted or canceled since stays so while they keep another card). Best effort: a gateway down at start is logged.
 */
export async function seedDemoVault(deps: VaultDeps, shopperEmail: string, log: FastifyBaseLogger): Promise<void> {
  try {
    const account = await findAccountByEmail(deps.db, shopperEmail);
    if (account === undefined || (await listVaulted(deps, account.id)).length > 0) return;
    const added = await addSavedMethod(deps, account.id, { nonce: DEMO_CARD_NONCE, makeDefault: true });
    if (added.kind !== 'saved') throw new Error(`demo card not saved: ${added.kind}`);
    const plan = DEMO_PLANS[0];
    if (plan === undefined) return;
    const subscribed = await deps.vault.subscribe({
      id: `ks_demo_${added.method.id}`,
      planId: plan.id,
      paymentMethodToken: added.method.id,
      price: toDecimalString({ amount: plan.price_amount, currency: plan.currency }),
    });
    if (subscribed.kind !== 'created') throw new Error(`demo subscription declined: ${subscribed.processorResponseText ?? ''}`);
  } catch (error) {
    log.warn({ err: error }, 'demo saved card and subscription not seeded');
  }
}
