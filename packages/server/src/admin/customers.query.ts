import { sql } from 'kysely';
import { z } from 'zod';
import type { Db } from '../db/connect.ts';
import { moneySchema } from '../money.ts';
import { newestFirstAfter, type PageCursor, pageOf } from './page-cursor.ts';

/** A shopper's account as the merchant sees it: who, since when, and what they paid. */
export const adminCustomerSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  createdAt: z.string(),
  orders: z.number().int().describe('Orders placed with the account.'),
  payments: z.number().int().describe('Attempts that charged a card (refunded ones included).'),
  spent: z.array(moneySchema).describe('What those attempts charged, per currency, before refunds.'),
  lastPaymentAt: z.string().nullable(),
});
export type AdminCustomer = z.infer<typeof adminCustomerSchema>;

/** Statuses whose attempt took money (a void gave it all back before it moved). */
const SPENDING_STATUSES = ['succeeded', 'partially_refunded', 'refunded'] as const;

/** `like` pattern of a prefix typed by a person: its wildcards are literal. */
function prefixPattern(text: string): string {
  return `${text
    .trim()
    .toLowerCase()
    .replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/**
 * A page of shoppers, newest first (index `accounts_created`), with what each paid: the aggregates are computed for
 * the page's accounts only, so a page costs the same with 100,000 payments.
 */
export async function listCustomers(
  db: Db,
  filter: { email?: string; after?: PageCursor; limit: number },
): Promise<{ customers: AdminCustomer[]; nextCursor: string | null }> {
  let query = db.selectFrom('accounts').select(['id', 'email', 'name', 'created_at']).where('role', '=', 'shopper');
  if (filter.email !== undefined && filter.email.trim() !== '')
    query = query.where(sql<boolean>`email like ${prefixPattern(filter.email)} escape '\\'`);
  const rows = await newestFirstAfter(query, { at: 'created_at', id: 'id' }, filter.after, filter.limit).execute();
  const { page, nextCursor } = pageOf(rows, filter.limit, (row) => ({ at: row.created_at, id: row.id }));
  const ids = page.map((row) => row.id);
  const [orderCounts, spending] =
    ids.length === 0
      ? [[], []]
      : await Promise.all([
          db
            .selectFrom('orders')
            .select(['owner_account_id', (eb) => eb.fn.countAll().as('count')])
            .where('owner_account_id', 'in', ids)
            .groupBy('owner_account_id')
            .execute(),
          db
            .selectFrom('payments as p')
            .innerJoin('orders as o', 'o.id', 'p.order_id')
            .select([
              'o.owner_account_id',
              'p.currency',
              (eb) => eb.fn.countAll().as('count'),
              (eb) => eb.fn.sum<string | number>('p.amount').as('total'),
              (eb) => eb.fn.max('p.created_at').as('last_at'),
            ])
            .where('o.owner_account_id', 'in', ids)
            .where('p.status', 'in', SPENDING_STATUSES)
            .groupBy(['o.owner_account_id', 'p.currency'])
            .execute(),
        ]);
  const customers = page.map((row): AdminCustomer => {
    const mine = spending.filter((entry) => entry.owner_account_id === row.id);
    const lastPaymentAt =
      mine
        .map((entry) => String(entry.last_at))
        .sort()
        .at(-1) ?? null;
    return {
      id: row.id,
      email: row.email,
      name: row.name,
      createdAt: row.created_at,
      orders: Number(orderCounts.find((entry) => entry.owner_account_id === row.id)?.count ?? 0),
      payments: mine.reduce((sum, entry) => sum + Number(entry.count), 0),
      spent: mine
        .map((entry) => ({ amount: Number(entry.total), currency: entry.currency }))
        .sort((a, b) => a.currency.localeCompare(b.currency)),
      lastPaymentAt,
    };
  });
  return {
    customers,
    nextCursor,
  };
}
