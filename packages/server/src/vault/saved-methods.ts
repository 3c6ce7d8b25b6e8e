import { z } from 'zod';
import { ensureGatewayCustomer } from '../accounts/accounts.service.ts';
import { clearGatewayCustomerId, findAccountById } from '../accounts/accounts.repository.ts';
import type { Db } from '../db/connect.ts';
import type { PaymentGateway } from '../gateway/gateway.ts';
import { isCharging } from '../gateway/vault-gateway.ts';
import type { SavedCard, VaultGateway, VerificationFailure } from '../gateway/vault-gateway.ts';

export const savedMethodSchema = z.object({
  id: z.string().describe("The saved card's token at the gateway."),
  type: z.literal('CreditCard'),
  brand: z.string().describe('As the gateway names it: `Visa`, `MasterCard`, `American Express`, ...'),
  bin: z.string(),
  lastFour: z.string(),
  expirationMonth: z.string(),
  expirationYear: z.string(),
  cardholderName: z.string().nullable(),
  default: z.boolean(),
  hasSubscription: z.boolean().describe('A subscription still charges it: it cannot be deleted.'),
});
export type SavedMethod = z.infer<typeof savedMethodSchema>;

export interface VaultDeps {
  db: Db;
  gateway: PaymentGateway;
  vault: VaultGateway;
}

export function toSavedMethod(card: SavedCard): SavedMethod {
  return {
    id: card.token,
    type: 'CreditCard',
    brand: card.brand,
    bin: card.bin,
    lastFour: card.lastFour,
    expirationMonth: card.expirationMonth,
    expirationYear: card.expirationYear,
    cardholderName: card.cardholderName,
    default: card.isDefault,
    hasSubscription: card.subscriptions.some(isCharging),
  };
}

/** The shopper's gateway customer, if they have one yet (none: nothing saved). */
async function customerOf(db: Db, accountId: string): Promise<string | null> {
  return (await findAccountById(db, accountId))?.gateway_customer_id ?? null;
}

export async function listSavedCards(deps: VaultDeps, accountId: string): Promise<SavedCard[]> {
  const customerId = await customerOf(deps.db, accountId);
  if (customerId === null) return [];
  return (await deps.vault.listCards(customerId)) ?? [];
}

export async function listSavedMethods(deps: VaultDeps, accountId: string): Promise<SavedMethod[]> {
  return (await listSavedCards(deps, accountId)).map(toSavedMethod);
}

/** A saved card of this shopper's; another shopper's, or an unknown token, is null alike (nothing to tell apart). */
export async function findOwnedCard(deps: VaultDeps, accountId: string, token: string): Promise<SavedCard | null> {
  const customerId = await customerOf(deps.db, accountId);
  if (customerId === null) return null;
  const card = await deps.vault.findCard(token);
  return card !== null && card.customerId === customerId ? card : null;
}

export type AddSavedMethodResult =
  | { kind: 'saved'; method: SavedMethod }
  | { kind: 'duplicate' }
  | { kind: 'verification_failed'; verification: VerificationFailure }
  | { kind: 'invalid_nonce'; message: string };

/**
 * Saves a tokenized card for the shopper: verified by the gateway, refused when the card is already in the vault.
 * A customer the gateway no longer knows is created again, once.
 */
export async function addSavedMethod(
  deps: VaultDeps,
  accountId: string,
  input: { nonce: string; makeDefault: boolean },
): Promise<AddSavedMethodResult> {
  let customerId = await ensureGatewayCustomer(deps.db, deps.gateway, accountId);
  let outcome = await deps.vault.addCard({ customerId, ...input });
  if (outcome.kind === 'unknown_customer') {
    await clearGatewayCustomerId(deps.db, accountId, customerId);
    customerId = await ensureGatewayCustomer(deps.db, deps.gateway, accountId);
    outcome = await deps.vault.addCard({ customerId, ...input });
  }
  switch (outcome.kind) {
    case 'saved':
      return { kind: 'saved', method: toSavedMethod(outcome.card) };
    case 'unknown_customer':
      throw new Error(`the gateway lost customer ${customerId} twice`);
    default:
      return outcome;
  }
}

export async function makeDefaultMethod(deps: VaultDeps, accountId: string, token: string): Promise<SavedMethod | null> {
  const card = await findOwnedCard(deps, accountId, token);
  if (card === null) return null;
  return toSavedMethod(card.isDefault ? card : await deps.vault.makeDefault(token));
}

export type DeleteSavedMethodResult = 'deleted' | 'not_found' | 'has_subscription';

/**
 * Deletes a saved card of the shopper's. A card a subscription still charges is refused: the provider would cancel
 * the subscription with it, and the shopper did not ask for that (gateway.md). Whatever the browser shows or sends.
 */
export async function deleteSavedMethod(deps: VaultDeps, accountId: string, token: string): Promise<DeleteSavedMethodResult> {
  const card = await findOwnedCard(deps, accountId, token);
  if (card === null) return 'not_found';
  if (card.subscriptions.some(isCharging)) return 'has_subscription';
  await deps.vault.deleteCard(token);
  return 'deleted';
}

/** A single-use nonce charging one of the shopper's saved cards (to pay an order with it, no card typed). */
export async function savedMethodNonce(deps: VaultDeps, accountId: string, token: string): Promise<string | null> {
  const card = await findOwnedCard(deps, accountId, token);
  return card === null ? null : deps.vault.createNonce(token);
}
