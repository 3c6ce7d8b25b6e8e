import { sql } from 'kysely';
import { z } from 'zod';
import type { Db } from '../db/connect.ts';

export const OVERVIEW_PERIODS = ['7', '30', '90'] as const;

const perDay = z.array(z.number()).describe('One value per day of `days`.');
const currencySeries = z.object({
  currency: z.string().length(3),
  amounts: perDay.describe('Minor units, one per day of `days`.'),
  total: z.number().int(),
});

/** The dashboard's overview: what the shop took, day by day (UTC days), over the last 7, 30 or 90 days. */
export const overviewSchema = z.object({
  days: z.array(z.string()).describe('The days covered, oldest first (YYYY-MM-DD, UTC), today last.'),
  volume: z
    .array(currencySeries)
    .describe('What charges took per currency (voided ones left out: no money moved), largest first.'),
  refunds: z.array(currencySeries).describe('What refunds gave back per currency.'),
  succeeded: perDay.describe('Attempts that charged, per day.'),
  declined: perDay.describe('Declined attempts, per day.'),
  declineReasons: z
    .array(z.object({ reason: z.string(), counts: perDay, total: z.number().int() }))
    .describe(
      "Declines per reason (the processor's text, else the gateway's rejection or the decline's kind), most frequent first.",
    ),
  approvalRate: z
    .number()
    .min(0)
    .max(1)
    .nullable()
    .describe('Charged / (charged + declined) over the period; null with no finished attempt.'),
});
export type Overview = z.infer<typeof overviewSchema>;

const CHARGING_STATUSES = ['succeeded', 'partially_refunded', 'refunded', 'voided'] as const;
const VOLUME_STATUSES = ['succeeded', 'partially_refunded', 'refunded'] as const;

/** `YYYY-MM-DD` of the first 10 characters of an ISO timestamp column: the same on SQLite and PostgreSQL. */
const dayOf = (column: string) => sql<string>`substr(${sql.ref(column)}, 1, 10)`;

/**
 * Aggregated in the database by day (the `payments_status_created` index bounds the range), so the overview costs a scan of
 * the period's rows whatever the table's size.
 */
export async function overview(db: Db, periodDays: number, now: Date = new Date()): Promise<Overview> {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const days = Array.from({ length: periodDays }, (_, index) =>
    new Date(today - (periodDays - 1 - index) * 86_400_000).toISOString().slice(0, 10),
  );
  const from = `${days[0]}T00:00:00.000Z`;
  const slot = new Map(days.map((day, index) => [day, index]));
  const series = () => days.map(() => 0);

  const [byStatus, declines, refunds] = await Promise.all([
    db
      .selectFrom('payments')
      .select([
        dayOf('created_at').as('day'),
        'status',
        'currency',
        (eb) => eb.fn.countAll().as('count'),
        (eb) => eb.fn.sum<string | number>('amount').as('total'),
      ])
      .where('created_at', '>=', from)
      .where('status', 'in', [...CHARGING_STATUSES, 'declined'])
      .groupBy([dayOf('created_at'), 'status', 'currency'])
      .execute(),
    db
      .selectFrom('payments')
      .select([
        dayOf('created_at').as('day'),
        sql<string>`coalesce(processor_response_text, gateway_rejection_reason, decline_reason, 'unknown')`.as('reason'),
        (eb) => eb.fn.countAll().as('count'),
      ])
      .where('created_at', '>=', from)
      .where('status', '=', 'declined')
      .groupBy([dayOf('created_at'), sql`coalesce(processor_response_text, gateway_rejection_reason, decline_reason, 'unknown')`])
      .execute(),
    db
      .selectFrom('refunds')
      .select([dayOf('created_at').as('day'), 'currency', (eb) => eb.fn.sum<string | number>('amount').as('total')])
      .where('created_at', '>=', from)
      .where('kind', '=', 'refund')
      .groupBy([dayOf('created_at'), 'currency'])
      .execute(),
  ]);

  const volume = new Map<string, number[]>();
  const refunded = new Map<string, number[]>();
  const reasons = new Map<string, number[]>();
  const succeeded = series();
  const declined = series();
  const add = (map: Map<string, number[]>, key: string, index: number, value: number) => {
    const values = map.get(key) ?? series();
    values[index] = (values[index] ?? 0) + value;
    map.set(key, values);
  };
  for (const row of byStatus) {
    const index = slot.get(row.day);
    if (index === undefined) continue;
    const count = Number(row.count);
    if (row.status === 'declined') declined[index] = (declined[index] ?? 0) + count;
    else succeeded[index] = (succeeded[index] ?? 0) + count;
    if ((VOLUME_STATUSES as readonly string[]).includes(row.status)) add(volume, row.currency, index, Number(row.total));
  }
  for (const row of declines) {
    const index = slot.get(row.day);
    if (index !== undefined) add(reasons, row.reason, index, Number(row.count));
  }
  for (const row of refunds) {
    const index = slot.get(row.day);
    if (index !== undefined) add(refunded, row.currency, index, Number(row.total));
  }

  const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);
  const toSeries = (map: Map<string, number[]>) =>
    [...map]
      .map(([currency, amounts]) => ({ currency, amounts, total: sum(amounts) }))
      .sort((a, b) => b.total - a.total || a.currency.localeCompare(b.currency));
  const finished = sum(succeeded) + sum(declined);
  return {
    days,
    volume: toSeries(volume),
    refunds: toSeries(refunded),
    succeeded,
    declined,
    declineReasons: [...reasons]
      .map(([reason, counts]) => ({ reason, counts, total: sum(counts) }))
      .sort((a, b) => b.total - a.total || a.reason.localeCompare(b.reason)),
    approvalRate: finished === 0 ? null : sum(succeeded) / finished,
  };
}
