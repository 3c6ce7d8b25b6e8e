import { z } from 'zod';
import { ensureGatewayCustomer } from '../accounts/accounts.service.ts';
import { clearGatewayCustomerId, findAccountById } from '../accounts/accounts.repository.ts';
import type { Db } from '../db/connect.ts';
import type { CardLookup } from '../gateway/card-lookup.ts';
import type { PaymentGateway } from '../gateway/gateway.ts';
import { isCharging, VAULTED_METHOD_TYPES } from '../gateway/vault-gateway.ts';
import type { VaultedMethod, VaultGateway, VerificationFailure } from '../gateway/vault-gateway.ts';

export const savedMethodSchema = z.object({
  id: z.string().describe("The saved method's token at the gateway."),
  type: z
    .enum(VAULTED_METHOD_TYPES)
    .describe('A card, or a wallet: a PayPal or Venmo account, an Apple Pay or Google Pay (`AndroidPayCard`) card.'),
  brand: z
    .string()
    .describe(
      "As the gateway names it: `Visa`, `MasterCard`, `American Express`, ...; an Apple Pay or Google Pay card's own brand; empty for a PayPal or Venmo account.",
    ),
  bin: z.string(),
  lastFour: z.string().describe('Empty for a PayPal or Venmo account.'),
  expirationMonth: z.string(),
  expirationYear: z.string(),
  cardholderName: z.string().nullable(),
  email: z.string().nullable().describe("The PayPal account's email; null for the others."),
  username: z.string().nullable().describe('The Venmo username (without the @); null for the others.'),
  default: z.boolean(),
  hasSubscription: z.boolean().describe('A subscription still charges it: it cannot be deleted.'),
});
export type SavedMethod = z.infer<typeof savedMethodSchema>;

export interface VaultDeps {
  db: Db;
  gateway: PaymentGateway;
  vault: VaultGateway;
}

export function toSavedMethod(method: VaultedMethod): SavedMethod {
  return {
    id: method.token,
    type: method.type,
    brand: method.brand,
    bin: method.bin,
    lastFour: method.lastFour,
    expirationMonth: method.expirationMonth,
    expirationYear: method.expirationYear,
    cardholderName: method.cardholderName,
    email: method.email,
    username: method.username,
    default: method.isDefault,
    hasSubscription: method.subscriptions.some(isCharging),
  };
}

/** The shopper's gateway customer, if they have one yet (none: nothing saved). */
async function customerOf(db: Db, accountId: string): Promise<string | null> {
  return (await findAccountById(db, accountId))?.gateway_customer_id ?? null;
}

/** The shopper's saved cards and wallets, default first. */
export async function listVaulted(deps: VaultDeps, accountId: string): Promise<VaultedMethod[]> {
  const customerId = await customerOf(deps.db, accountId);
  if (customerId === null) return [];
  return (await deps.vault.listMethods(customerId)) ?? [];
}

export async function listSavedMethods(deps: VaultDeps, accountId: string): Promise<SavedMethod[]> {
  return (await listVaulted(deps, accountId)).map(toSavedMethod);
}

/** A saved method of this shopper's; another shopper's, or an unknown token, is null alike (nothing to tell apart). */
export async function findOwnedMethod(deps: VaultDeps, accountId: string, token: string): Promise<VaultedMethod | null> {
  const customerId = await customerOf(deps.db, accountId);
  if (customerId === null) return null;
  const method = await deps.vault.findMethod(token);
  return method !== null && method.customerId === customerId ? method : null;
}

export type AddSavedMethodResult =
  | { kind: 'saved'; method: SavedMethod }
  | { kind: 'duplicate' }
  /** A wallet the shopper had saved already (the one saved before: the new copy is not kept). */
  | { kind: 'already_saved'; method: SavedMethod }
  | { kind: 'verification_failed'; verification: VerificationFailure }
  | { kind: 'invalid_nonce'; message: string };

/**
 * Whether two saved wallets pay from the same account: the same PayPal email, Venmo user, or Apple Pay / Google Pay
 * card (its brand and last four, as the shopper and the web app's saved list tell them apart). Cards are the gateway's
 * to compare (its duplicate check sees the whole number).
 */
function sameWallet(a: VaultedMethod, b: VaultedMethod): boolean {
  if (a.type !== b.type) return false;
  switch (a.type) {
    case 'CreditCard':
      return false;
    case 'PayPalAccount':
      return a.email !== null && a.email.toLowerCase() === b.email?.toLowerCase();
    case 'VenmoAccount':
      return a.username !== null && a.username === b.username;
    default:
      return a.brand === b.brand && a.lastFour === b.lastFour;
  }
}

/**
 * Saves a tokenized card for the shopper (verified by the gateway, refused when the card is already saved), or an
 * approved wallet (a PayPal billing agreement, a Venmo account, an Apple Pay or Google Pay card; a one-time PayPal
 * payment is refused as `invalid_nonce`). A customer the gateway no longer knows is created again, once.
 *
 * The gateway refuses a card saved twice but saves a wallet again and again (gateway.md: its duplicate check is for
 * cards), so a wallet the shopper already has is found here: its new copy is deleted and the one saved before answered
 * (`already_saved`; made the default if this save asked for it). A save racing another of the same wallet may keep both.
 */
export async function addSavedMethod(
  deps: VaultDeps,
  accountId: string,
  input: { nonce: string; makeDefault: boolean },
): Promise<AddSavedMethodResult> {
  let customerId = await ensureGatewayCustomer(deps.db, deps.gateway, accountId);
  let before = (await deps.vault.listMethods(customerId)) ?? [];
  let outcome = await deps.vault.addMethod({ customerId, ...input });
  if (outcome.kind === 'unknown_customer') {
    await clearGatewayCustomerId(deps.db, accountId, customerId);
    customerId = await ensureGatewayCustomer(deps.db, deps.gateway, accountId);
    before = [];
    outcome = await deps.vault.addMethod({ customerId, ...input });
  }
  switch (outcome.kind) {
    case 'saved': {
      const added = outcome.method;
      const earlier = before.find((method) => sameWallet(method, added));
      if (earlier === undefined) return { kind: 'saved', method: toSavedMethod(added) };
      await deps.vault.deleteMethod(added.token);
      const kept = input.makeDefault ? await deps.vault.makeDefault(earlier.token) : earlier;
      return { kind: 'already_saved', method: toSavedMethod(kept) };
    }
    case 'unknown_customer':
      throw new Error(`the gateway lost customer ${customerId} twice`);
    default:
      return outcome;
  }
}

export async function makeDefaultMethod(deps: VaultDeps, accountId: string, token: string): Promise<SavedMethod | null> {
  const method = await findOwnedMethod(deps, accountId, token);
  if (method === null) return null;
  return toSavedMethod(method.isDefault ? method : await deps.vault.makeDefault(token));
}

export type DeleteSavedMethodResult = 'deleted' | 'not_found' | 'has_subscription';

/**
 * Deletes a saved method of the shopper's. One a subscription still charges is refused: the provider would cancel
 * the subscription with it, and the shopper did not ask for that (gateway.md). Whatever the browser shows or sends.
 */
export async function deleteSavedMethod(deps: VaultDeps, accountId: string, token: string): Promise<DeleteSavedMethodResult> {
  const method = await findOwnedMethod(deps, accountId, token);
  if (method === null) return 'not_found';
  if (method.subscriptions.some(isCharging)) return 'has_subscription';
  await deps.vault.deleteMethod(token);
  return 'deleted';
}

/**
 * A single-use nonce charging one of the shopper's saved methods (to pay an order with it, nothing typed). Its card, as
 * the gateway's answer describes it, is told to the payments' card look-up, which then need not ask the gateway.
 */
export async function savedMethodNonce(
  deps: VaultDeps & { cards: CardLookup | null },
  accountId: string,
  token: string,
): Promise<string | null> {
  const method = await findOwnedMethod(deps, accountId, token);
  if (method === null) return null;
  const { nonce, card } = await deps.vault.createNonce(token);
  if (card !== null) deps.cards?.remember(nonce, card);
  return nonce;
}
