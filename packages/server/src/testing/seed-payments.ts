import type { Db } from '../db/connect.ts';
import { MIN_PASSWORD_COST, hashPassword } from '../accounts/passwords.ts';
import { newId } from '../ids.ts';
import { lastOrderNumber, takeOrderNumbersUpTo } from '../orders/orders.repository.ts';
import type { Insertable } from 'kysely';
import type { AccountsTable, OrdersTable, PaymentsTable, RefundsTable } from '../db/schema.ts';

/**
 * Synthetic history for the dashboard: `payments` attempts over the last `days` days, by `customers` shoppers and
 * some guests, with the mix a shop sees (most charged, some declined for the processor's usual reasons, a few
 * refunded, partly refunded or voided). For the scale test and for looking at the dashboard with data in it; never
 * run against a real shop's database (the rows are made up). Deterministic for a given `seed`.
 */
export interface SeedOptions {
  payments: number;
  customers: number;
  days: number;
  currency?: string;
  seed?: number;
  now?: Date;
}

const DECLINES = [
  ['2000', 'Do Not Honor'],
  ['2001', 'Insufficient Funds'],
  ['2004', 'Expired Card'],
  ['2010', 'Card Issuer Declined CVV'],
  ['2044', 'Declined - Call Issuer'],
] as const;
const BRANDS = [
  ['Visa', '1111'],
  ['Visa', '1881'],
  ['MasterCard', '4444'],
  ['American Express', '0005'],
  ['Discover', '1117'],
] as const;
const PRICES = [1200, 2450, 2450, 4900, 18900, 3650, 7350] as const;
const BATCH = 500;

/** A small deterministic generator (mulberry32): the same seed, the same shop. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export async function seedPayments(db: Db, options: SeedOptions): Promise<{ payments: number; customers: number }> {
  const next = random(options.seed ?? 1);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const currency = options.currency ?? 'EUR';
  const now = (options.now ?? new Date()).getTime();
  const admin = await db.selectFrom('accounts').select('id').where('role', '=', 'admin').executeTakeFirst();
  // One real hash for every made-up shopper: their password is random and unknown, so nobody signs in as them.
  const passwordHash = await hashPassword(`seeded-${now}-${next()}`, MIN_PASSWORD_COST);

  const accounts: Insertable<AccountsTable>[] = Array.from({ length: options.customers }, (_, index) => ({
    id: newId('acc'),
    email: `customer${index + 1}.${(options.seed ?? 1).toString(36)}@example.com`,
    name: `Customer ${index + 1}`,
    password_hash: passwordHash,
    role: 'shopper',
    gateway_customer_id: null,
    created_at: new Date(now - options.days * 86_400_000 - Math.floor(next() * 86_400_000 * 30)).toISOString(),
  }));
  for (let start = 0; start < accounts.length; start += BATCH)
    await db
      .insertInto('accounts')
      .values(accounts.slice(start, start + BATCH))
      .execute();

  let number = await lastOrderNumber(db);
  for (let start = 0; start < options.payments; start += BATCH) {
    const orders: Insertable<OrdersTable>[] = [];
    const payments: Insertable<PaymentsTable>[] = [];
    const refunds: Insertable<RefundsTable>[] = [];
    for (let index = start; index < Math.min(start + BATCH, options.payments); index += 1) {
      const at = new Date(now - Math.floor(next() * options.days * 86_400_000)).toISOString();
      const amount = pick(PRICES) * (next() < 0.2 ? 2 : 1);
      const owner = next() < 0.8 && accounts.length > 0 ? pick(accounts).id : null;
      const roll = next();
      const status =
        roll < 0.1
          ? 'declined'
          : roll < 0.12
            ? 'refunded'
            : roll < 0.13
              ? 'partially_refunded'
              : roll < 0.14
                ? 'voided'
                : roll < 0.145
                  ? 'pending'
                  : 'succeeded';
      const orderId = newId('ord');
      const paymentId = newId('pay');
      number += 1;
      orders.push({
        id: orderId,
        number,
        status:
          status === 'declined' || status === 'pending'
            ? 'pending'
            : status === 'partially_refunded' || status === 'succeeded'
              ? 'paid'
              : status,
        total_amount: amount,
        currency,
        owner_account_id: owner,
        owner_session_id: null,
        created_at: at,
        updated_at: at,
      });
      const [brand, lastFour] = pick(BRANDS);
      const decline = status === 'declined' ? pick(DECLINES) : null;
      payments.push({
        id: paymentId,
        order_id: orderId,
        status,
        amount,
        currency,
        idempotency_ref: null,
        nonce: `seeded-${paymentId}`,
        device_data: null,
        merchant_account_id: null,
        vault_customer_id: null,
        transaction_id: status === 'pending' ? null : `seed${index.toString(36)}`,
        card_brand: status === 'pending' ? null : brand,
        card_last_four: status === 'pending' ? null : lastFour,
        decline_reason: decline === null ? null : 'processor_declined',
        processor_response_code: decline?.[0] ?? null,
        processor_response_text: decline?.[1] ?? null,
        gateway_rejection_reason: null,
        payment_method_type: status === 'pending' ? null : 'credit_card',
        settlement_status: status === 'succeeded' || status === 'refunded' || status === 'partially_refunded' ? 'settled' : null,
        settlement_status_at: null,
        three_d_secure_status: null,
        liability_shifted: null,
        liability_shift_possible: null,
        created_at: at,
        updated_at: at,
      });
      if (admin !== undefined && (status === 'refunded' || status === 'partially_refunded' || status === 'voided')) {
        const given = status === 'partially_refunded' ? Math.floor(amount / 2) : amount;
        const later = new Date(Math.min(now, Date.parse(at) + 3 * 86_400_000)).toISOString();
        refunds.push({
          id: newId('ref'),
          payment_id: paymentId,
          kind: status === 'voided' ? 'void' : 'refund',
          amount: given,
          currency,
          transaction_id: status === 'voided' ? null : `seedcr${index.toString(36)}`,
          idempotency_ref: `seed:${paymentId}`,
          actor_account_id: admin.id,
          created_at: later,
        });
      }
    }
    await db.transaction().execute(async (tx) => {
      await tx.insertInto('orders').values(orders).execute();
      await tx.insertInto('payments').values(payments).execute();
      if (refunds.length > 0) await tx.insertInto('refunds').values(refunds).execute();
    });
  }
  await takeOrderNumbersUpTo(db, number);
  return { payments: options.payments, customers: options.customers };
}
