import { z } from 'zod';
import type { Money } from '../money.ts';
import type { PaymentSummary } from '../payments/payment.ts';

/** Order statuses and their allowed moves, from one constant: the union and the schema derive from it. */
export const ORDER_TRANSITIONS = {
  pending: ['paid'],
  paid: [],
} as const satisfies Record<string, readonly string[]>;

export type OrderStatus = keyof typeof ORDER_TRANSITIONS;
export const ORDER_STATUSES = Object.keys(ORDER_TRANSITIONS) as [OrderStatus, ...OrderStatus[]];
export const orderStatusSchema = z.enum(ORDER_STATUSES);

export function canTransitionOrder(from: OrderStatus, to: OrderStatus): boolean {
  return (ORDER_TRANSITIONS[from] as readonly OrderStatus[]).includes(to);
}

export interface OrderItem {
  productId: string;
  name: string;
  quantity: number;
  unitPrice: Money;
  total: Money;
}

export interface Order {
  id: string;
  /** What the shopper reads on the receipt; `id` stays the key. */
  number: number;
  status: OrderStatus;
  items: OrderItem[];
  total: Money;
  createdAt: string;
  /** The successful attempt, else the latest one. */
  payment?: PaymentSummary;
  /** Every payment attempt, oldest first. */
  payments: PaymentSummary[];
}

/** Who may see an order: its account, or for a guest order the guest's session. */
export interface Owner {
  accountId: string | null;
  sessionId: string;
}
