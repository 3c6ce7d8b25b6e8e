import { expect } from 'vitest';
import type { Db } from '../db/connect.ts';
import type { PaymentRow } from '../db/schema.ts';
import type { Money } from '../money.ts';
import { insertPendingPayment } from '../payments/payments.repository.ts';
import type { TestClient } from './client.ts';

export interface RecordedPayment {
  status: 'succeeded' | 'declined' | 'pending';
  lastFour?: string;
  minutesAgo: number;
  quantity?: number;
  /** The processor's text of a decline. */
  declineText?: string;
}

/**
 * An order of `quantity` mugs (12.00 each) placed by `client`, and an attempt to pay it with the gateway's test Visa
 * nonce, pending: not sent to the gateway yet (a test sends it, or records the gateway's answer itself).
 */
export async function pendingAttempt(db: Db, client: TestClient, quantity = 1): Promise<PaymentRow> {
  const response = await client.post('/api/orders', { items: [{ productId: 'prd_mug', quantity }] });
  expect(response.statusCode).toBe(201);
  const order = response.json<{ order: { id: string; total: Money } }>().order;
  const pending = await insertPendingPayment(db, {
    orderId: order.id,
    amount: order.total,
    idempotencyRef: null,
    nonce: 'fake-valid-visa-nonce',
    deviceData: null,
    merchantAccountId: null,
  });
  if (pending === undefined) throw new Error('attempt not inserted');
  return pending;
}

/**
 * An order by `client` (mugs at 12.00) and a finished attempt on it, created `minutesAgo`, written straight to the
 * database: the admin tests read payments, they do not need a gateway to make them.
 */
export async function recordPayment(db: Db, client: TestClient, options: RecordedPayment): Promise<string> {
  const response = await client.post('/api/orders', { items: [{ productId: 'prd_mug', quantity: options.quantity ?? 1 }] });
  expect(response.statusCode).toBe(201);
  const order = response.json<{ order: { id: string; total: { amount: number } } }>().order;
  const row = await insertPendingPayment(db, {
    orderId: order.id,
    amount: { amount: order.total.amount, currency: 'EUR' },
    idempotencyRef: null,
    nonce: 'n',
    deviceData: null,
    merchantAccountId: null,
  });
  if (row === undefined) throw new Error('attempt not inserted');
  const at = new Date(Date.now() - options.minutesAgo * 60_000).toISOString();
  await db
    .updateTable('payments')
    .set({
      status: options.status,
      created_at: at,
      updated_at: at,
      ...(options.status === 'succeeded'
        ? {
            card_brand: 'Visa',
            card_last_four: options.lastFour ?? '1111',
            payment_method_type: 'credit_card',
            transaction_id: `t_${row.id}`,
          }
        : {}),
      ...(options.status === 'declined'
        ? {
            decline_reason: 'processor_declined',
            payment_method_type: 'credit_card',
            processor_response_text: options.declineText ?? null,
          }
        : {}),
    })
    .where('id', '=', row.id)
    .execute();
  return row.id;
}
