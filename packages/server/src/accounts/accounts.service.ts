import { createHmac } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/connect.ts';
import type { PaymentGateway } from '../gateway/gateway.ts';
import { toAccount, normalizeEmail } from './account.ts';
import type { Account, Role } from './account.ts';
import {
  findAccountByEmail,
  findAccountById,
  insertAccount,
  setGatewayCustomerId,
  setPasswordHash,
} from './accounts.repository.ts';
import { hashPassword, keptHash, madeAtOtherCost, verifyPassword } from './passwords.ts';
import type { PasswordCost } from './passwords.ts';

export type CreateAccountResult = { kind: 'created'; account: Account } | { kind: 'email_taken' };

/** An account made at once: the seeded demo accounts (people sign up by mail: sign-up.ts). */
export async function createAccount(
  db: Db,
  input: { email: string; password: string; name: string; role?: Role },
  cost: PasswordCost,
): Promise<CreateAccountResult> {
  const email = normalizeEmail(input.email);
  const row = await insertAccount(db, {
    email,
    name: input.name.trim(),
    // Kept once made (keptHash): the server's tests seed a fresh database for each app they build (hundreds per run, two
    // Argon2 hashes each), and a demo password is the same every time.
    passwordHash: await keptHash(input.password, cost),
    role: input.role ?? 'shopper',
  });
  return row === undefined ? { kind: 'email_taken' } : { kind: 'created', account: toAccount(row) };
}

/**
 * What the sign-in and sign-up limits count an email as: keyed by the session secret (shared by every instance), so the table
 * keeps no list of the addresses people typed (or the passwords typed into the email field).
 */
export function emailSubject(secret: string, email: string): string {
  return createHmac('sha256', secret)
    .update(`sign-in:${normalizeEmail(email)}`)
    .digest('hex');
}

export async function signIn(
  db: Db,
  input: { email: string; password: string },
  cost: PasswordCost,
): Promise<Account | undefined> {
  const row = await findAccountByEmail(db, normalizeEmail(input.email));
  const ok = await verifyPassword(row?.password_hash ?? null, input.password, cost);
  if (!ok || row === undefined) return undefined;
  // A hash made at another cost than the one set is made again while the password is known: a raised cost reaches
  // existing accounts as their owners sign in, and a wrong password then costs what an unknown email's decoy does.
  if (madeAtOtherCost(row.password_hash, cost)) {
    await setPasswordHash(db, row.id, { from: row.password_hash, to: await hashPassword(input.password, cost) });
  }
  return toAccount(row);
}

/**
 * The shopper's customer at the gateway, created on first need (sign-up, or the first checkout if the gateway
 * was unreachable at sign-up, or for seeded accounts). Saved cards and subscriptions hang off it.
 */
export async function ensureGatewayCustomer(db: Db, gateway: PaymentGateway, accountId: string): Promise<string> {
  const row = await findAccountById(db, accountId);
  if (row === undefined) throw new Error(`account ${accountId} vanished`);
  if (row.gateway_customer_id !== null) return row.gateway_customer_id;
  const { customerId } = await gateway.createCustomer({ email: row.email, name: row.name });
  await setGatewayCustomerId(db, accountId, customerId);
  // Another request may have raced us: the first stored id wins.
  const saved = await findAccountById(db, accountId);
  return saved?.gateway_customer_id ?? customerId;
}

/** Best effort at sign-up: a gateway outage must not stop people from creating accounts. */
export async function tryEnsureGatewayCustomer(
  db: Db,
  gateway: PaymentGateway | null,
  accountId: string,
  log: FastifyBaseLogger,
): Promise<void> {
  if (gateway === null) return;
  try {
    await ensureGatewayCustomer(db, gateway, accountId);
  } catch (error) {
    log.warn({ err: error, accountId }, 'gateway customer not created; will retry at checkout');
  }
}

export interface DemoCredentials {
  shopper: { email: string; password: string };
  admin: { email: string; password: string };
}

/** The demo shopper and admin, created once. Their passwords are documented test-only values (see README). */
export async function seedDemoAccounts(
  db: Db,
  passwords: { shopperPassword: string; adminPassword: string },
  cost: PasswordCost,
): Promise<DemoCredentials> {
  const shopper = { email: 'shopper@kassa.test', password: passwords.shopperPassword };
  const admin = { email: 'admin@kassa.test', password: passwords.adminPassword };
  if ((await findAccountByEmail(db, shopper.email)) === undefined)
    await createAccount(db, { ...shopper, name: 'Demo Shopper' }, cost);
  if ((await findAccountByEmail(db, admin.email)) === undefined)
    await createAccount(db, { ...admin, name: 'Demo Admin', role: 'admin' }, cost);
  return { shopper, admin };
}
