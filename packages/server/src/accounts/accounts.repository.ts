import type { Db } from '../db/connect.ts';
import type { AccountRow } from '../db/schema.ts';
import { newId, nowIso } from '../ids.ts';
import type { Role } from './account.ts';

export function findAccountByEmail(db: Db, email: string): Promise<AccountRow | undefined> {
  return db.selectFrom('accounts').selectAll().where('email', '=', email).executeTakeFirst();
}

export function findAccountById(db: Db, id: string): Promise<AccountRow | undefined> {
  return db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Inserts unless the email exists; the unique constraint decides, so two concurrent sign-ups cannot both win. */
export async function insertAccount(
  db: Db,
  input: { email: string; name: string; passwordHash: string; role: Role },
): Promise<AccountRow | undefined> {
  const row: AccountRow = {
    id: newId('acc'),
    email: input.email,
    name: input.name,
    password_hash: input.passwordHash,
    role: input.role,
    gateway_customer_id: null,
    created_at: nowIso(),
  };
  const result = await db
    .insertInto('accounts')
    .values(row)
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1 ? row : undefined;
}

/** Replaces an account's password hash, unless another request already replaced the one read. */
export async function setPasswordHash(db: Db, accountId: string, hashes: { from: string; to: string }): Promise<void> {
  await db
    .updateTable('accounts')
    .set({ password_hash: hashes.to })
    .where('id', '=', accountId)
    .where('password_hash', '=', hashes.from)
    .execute();
}

export async function setGatewayCustomerId(db: Db, accountId: string, customerId: string): Promise<void> {
  await db
    .updateTable('accounts')
    .set({ gateway_customer_id: customerId })
    .where('id', '=', accountId)
    .where('gateway_customer_id', 'is', null)
    .execute();
}

/** Forgets a customer id the gateway no longer knows, unless another request already replaced it. */
export async function clearGatewayCustomerId(db: Db, accountId: string, staleCustomerId: string): Promise<void> {
  await db
    .updateTable('accounts')
    .set({ gateway_customer_id: null })
    .where('id', '=', accountId)
    .where('gateway_customer_id', '=', staleCustomerId)
    .execute();
}
