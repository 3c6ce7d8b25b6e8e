import { z } from 'zod';
import type { Db } from '../db/connect.ts';
import type { ProductRow } from '../db/schema.ts';
import { moneySchema } from '../money.ts';

export const productSchema = z.object({ id: z.string(), name: z.string(), description: z.string(), price: moneySchema });
export type Product = z.infer<typeof productSchema>;

export function toProduct(row: ProductRow): Product {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    price: { amount: row.price_amount, currency: row.currency },
  };
}

export async function listProducts(db: Db): Promise<Product[]> {
  const rows = await db.selectFrom('products').selectAll().orderBy('position').execute();
  return rows.map(toProduct);
}

export async function findProducts(db: Db, ids: readonly string[]): Promise<Map<string, Product>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('products')
    .selectAll()
    .where('id', 'in', [...ids])
    .execute();
  return new Map(rows.map((r) => [r.id, toProduct(r)]));
}
