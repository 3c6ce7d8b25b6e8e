import type { Db } from '../db/connect.ts';
import { insertOrder } from '../orders/orders.repository.ts';

/**
 * A guest's order of one mug (12.00 EUR) written straight to the database, for tests that drive the payment path
 * below the HTTP routes: the order, its owner (the guest session `sessionId`) and its total.
 */
export async function insertMugOrder(db: Db, sessionId: string) {
  const owner = { accountId: null, sessionId };
  const total = { amount: 1200, currency: 'EUR' };
  const item = { productId: 'prd_mug', name: 'Kassa mug', quantity: 1, unitPrice: total, total };
  const order = await insertOrder(db, { owner, items: [item], total });
  return { order, owner, total };
}
