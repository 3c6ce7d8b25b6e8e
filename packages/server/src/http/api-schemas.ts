import { z } from 'zod';
import { accountSchema } from '../accounts/account.ts';
import { adminPaymentSchema } from '../admin/payments.query.ts';
import { productSchema } from '../catalogue/catalogue.repository.ts';
import { planSchema } from '../catalogue/plans.repository.ts';
import { moneySchema } from '../money.ts';
import { orderItemSchema, orderSchema } from '../orders/order.ts';
import { declineSchema, paymentSummarySchema } from '../payments/payment.ts';
import { guestOrderSchema, sessionStateSchema } from '../routes/accounts/accounts.schemas.ts';
import { refundSchema } from '../refunds/refund.ts';
import { activityEntrySchema } from '../admin/activity.query.ts';
import { adminCustomerSchema } from '../admin/customers.query.ts';
import { adminDisputeSchema } from '../admin/disputes.query.ts';
import { overviewSchema } from '../admin/overview.query.ts';
import { adminSubscriptionSchema } from '../admin/subscriptions.query.ts';
import { paymentTimelineSchema, timelineEventSchema } from '../admin/timeline.ts';
import {
  activityPage,
  adminActionSchema,
  customersPage,
  disputesPage,
  disputeDetail,
  paymentDetail,
  paymentsPage,
  refundDone,
  subscriptionCanceled,
  subscriptionsList,
} from '../routes/admin/admin.schemas.ts';
import { shopConfigSchema } from '../routes/config/config.routes.ts';
import { refusalSchema, refusalsPage } from '../velocity/refusals.query.ts';
import { botcheckSettingsSchema } from '../routes/botcheck/botcheck.schemas.ts';
import { checkoutSessionSchema } from '../routes/orders/orders.schemas.ts';
import { paymentDeclinedSchema } from '../routes/payments/payments.schemas.ts';
import { vaultSessionSchema } from '../routes/payment-methods/payment-methods.schemas.ts';
import { subscriptionSchema } from '../subscriptions/subscriptions.ts';
import { savedMethodSchema } from '../vault/saved-methods.ts';
import { PROBLEMS, fieldErrorSchema, problemSchema } from './problem.ts';
import type { ProblemCode } from './problem.ts';

/**
 * The API's named shapes: each is a component of the OpenAPI document (referenced, not repeated) and a type of the web
 * app's generated `packages/web/src/api/types.gen.ts` (scripts/generate-web-contract.ts). Add a shape here to name it.
 */
export const API_SCHEMAS = {
  Money: moneySchema,
  Product: productSchema,
  Account: accountSchema,
  OrderItem: orderItemSchema,
  Decline: declineSchema,
  Payment: paymentSummarySchema,
  Order: orderSchema,
  BotcheckSettings: botcheckSettingsSchema,
  CheckoutSession: checkoutSessionSchema,
  ShopConfig: shopConfigSchema,
  FieldError: fieldErrorSchema,
  Problem: problemSchema,
  PaymentDeclined: paymentDeclinedSchema,
  GuestOrder: guestOrderSchema,
  SessionState: sessionStateSchema,
  Plan: planSchema,
  SavedPaymentMethod: savedMethodSchema,
  VaultSession: vaultSessionSchema,
  Subscription: subscriptionSchema,
  AdminPayment: adminPaymentSchema,
  AdminAction: adminActionSchema,
  PaymentsPage: paymentsPage,
  PaymentDetail: paymentDetail,
  Refund: refundSchema,
  RefundDone: refundDone,
  TimelineEvent: timelineEventSchema,
  PaymentTimeline: paymentTimelineSchema,
  Overview: overviewSchema,
  AdminSubscription: adminSubscriptionSchema,
  SubscriptionsList: subscriptionsList,
  SubscriptionCanceled: subscriptionCanceled,
  AdminDispute: adminDisputeSchema,
  DisputesPage: disputesPage,
  DisputeDetail: disputeDetail,
  AdminCustomer: adminCustomerSchema,
  CustomersPage: customersPage,
  Refusal: refusalSchema,
  RefusalsPage: refusalsPage,
  ActivityEntry: activityEntrySchema,
  ActivityPage: activityPage,
} as const satisfies Record<string, z.ZodType>;

/** The registry the OpenAPI document takes its components from. */
export const apiRegistry = z.registry<{ id: string }>();
for (const [id, schema] of Object.entries(API_SCHEMAS)) apiRegistry.add(schema, { id });

const PROBLEM_MEDIA_TYPE = 'application/problem+json';

interface ProblemResponse {
  description: string;
  content: { [PROBLEM_MEDIA_TYPE]: { schema: typeof problemSchema } };
}

/** The problems a route answers with, as OpenAPI responses: one per status, its description listing the codes. */
export function problemResponses(...codes: ProblemCode[]): Record<number, ProblemResponse> {
  const responses: Record<number, ProblemResponse> = {};
  for (const code of codes) {
    const { status, title } = PROBLEMS[code];
    const line = `\`${code}\`: ${title}`;
    const existing = responses[status];
    responses[status] = {
      description: existing === undefined ? line : `${existing.description}\n${line}`,
      content: { [PROBLEM_MEDIA_TYPE]: { schema: problemSchema } },
    };
  }
  return responses;
}
