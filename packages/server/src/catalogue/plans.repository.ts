import { z } from 'zod';
import type { Db } from '../db/connect.ts';
import type { PlanRow } from '../db/schema.ts';
import { moneySchema } from '../money.ts';

export const planSchema = z.object({
  id: z.string().describe("The plan's id, the same at the gateway."),
  name: z.string(),
  description: z.string(),
  price: moneySchema,
  billingFrequencyMonths: z.number().int(),
});
export type Plan = z.infer<typeof planSchema>;

export function toPlan(row: PlanRow): Plan {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    price: { amount: row.price_amount, currency: row.currency },
    billingFrequencyMonths: row.billing_frequency_months,
  };
}

export async function listPlans(db: Db): Promise<Plan[]> {
  const rows = await db.selectFrom('plans').selectAll().orderBy('position').execute();
  return rows.map(toPlan);
}

export async function findPlan(db: Db, id: string): Promise<Plan | undefined> {
  const row = await db.selectFrom('plans').selectAll().where('id', '=', id).executeTakeFirst();
  return row === undefined ? undefined : toPlan(row);
}
