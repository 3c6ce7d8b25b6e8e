import { findProducts } from '../catalogue/catalogue.repository.ts';
import type { Db } from '../db/connect.ts';
import type { FieldError } from '../http/problem.ts';
import type { Order, OrderItem, Owner } from './order.ts';
import { insertOrder } from './orders.repository.ts';

export interface CreateOrderInput {
  items: { productId: string; quantity: number }[];
}

export type CreateOrderResult = { kind: 'created'; order: Order } | { kind: 'invalid'; errors: FieldError[] };

/** Prices come from the catalogue, never from the browser. */
export async function createOrder(db: Db, owner: Owner, input: CreateOrderInput): Promise<CreateOrderResult> {
  const products = await findProducts(db, [...new Set(input.items.map((i) => i.productId))]);
  const errors: FieldError[] = [];
  const items: OrderItem[] = [];
  input.items.forEach((line, index) => {
    const product = products.get(line.productId);
    if (product === undefined) {
      errors.push({ field: `items.${index}.productId`, code: 'unknown_product', message: 'No product has this id.' });
      return;
    }
    const amount = product.price.amount * line.quantity;
    items.push({
      productId: product.id,
      name: product.name,
      quantity: line.quantity,
      unitPrice: product.price,
      total: { amount, currency: product.price.currency },
    });
  });
  const currencies = new Set(items.map((i) => i.unitPrice.currency));
  if (currencies.size > 1)
    errors.push({ field: 'items', code: 'mixed_currencies', message: 'All items of an order must share one currency.' });
  const [first] = items;
  if (first === undefined && errors.length === 0)
    errors.push({ field: 'items', code: 'too_small', message: 'Add at least one item.' });
  if (errors.length > 0 || first === undefined) return { kind: 'invalid', errors };
  const total = { amount: items.reduce((sum, i) => sum + i.total.amount, 0), currency: first.unitPrice.currency };
  return { kind: 'created', order: await insertOrder(db, { owner, items, total }) };
}
