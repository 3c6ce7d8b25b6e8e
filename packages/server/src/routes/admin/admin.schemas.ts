import { z } from 'zod';
import { adminCustomerSchema } from '../../admin/customers.query.ts';
import { activityEntrySchema } from '../../admin/activity.query.ts';
import { adminDisputeSchema } from '../../admin/disputes.query.ts';
import { OVERVIEW_PERIODS } from '../../admin/overview.query.ts';
import { decodePageCursor } from '../../admin/page-cursor.ts';
import { PAYMENT_SORTS, adminPaymentSchema, decodeCursor } from '../../admin/payments.query.ts';
import { adminSubscriptionSchema } from '../../admin/subscriptions.query.ts';
import { paymentTimelineSchema } from '../../admin/timeline.ts';
import { EVIDENCE_FILE_TYPES, MAX_EVIDENCE_FILE_BYTES } from '../../gateway/dispute-gateway.ts';
import { SUBSCRIPTION_STATUSES } from '../../gateway/vault-gateway.ts';
import { paymentStatusSchema } from '../../payments/payment.ts';
import { refundSchema } from '../../refunds/refund.ts';

const isoDateTime = z.iso.datetime({ offset: true, error: 'Use an ISO 8601 date and time, e.g. 2026-11-01T00:00:00Z.' });
const minorUnits = z.coerce
  .number('Use an amount in minor units.')
  .int('Use an amount in minor units.')
  .min(0)
  .max(Number.MAX_SAFE_INTEGER);

/** The payments list's filters (the list, its CSV export). */
const paymentFilters = {
  status: paymentStatusSchema.optional(),
  from: isoDateTime.optional().describe('Created at or after (inclusive).'),
  to: isoDateTime.optional().describe('Created before (exclusive).'),
  minAmount: minorUnits.optional().describe('Minor units, inclusive.'),
  maxAmount: minorUnits.optional().describe('Minor units, inclusive.'),
  customerEmail: z.string().trim().max(254).optional(),
  orderNumber: z.coerce
    .number()
    .int("Use the order's number, e.g. 1001.")
    .min(1, "Use the order's number, e.g. 1001.")
    .max(2_147_483_647, "Use the order's number, e.g. 1001.")
    .optional()
    .describe("The order's number, as the shop shows it ('Order 1001'): its attempts."),
  cardLastFour: z
    .string()
    .regex(/^\d{4}$/, "Use the card's last four digits.")
    .optional(),
  paymentMethodType: z.string().max(64).optional().describe("The gateway's paymentInstrumentType, e.g. `credit_card`."),
  sort: z.enum(PAYMENT_SORTS).default('newest').describe('Newest or oldest first, or by amount (largest or smallest first).'),
};

/** A `cursor` query member: the previous page's `nextCursor`, decoded by `decode` (a cursor we did not make is refused). */
export function cursorParam<T>(decode: (text: string) => T | null) {
  return z
    .string()
    .max(512)
    .transform((text, context) => {
      const cursor = decode(text);
      if (cursor === null) context.addIssue({ code: 'custom', message: 'Use the nextCursor of the previous page.' });
      return cursor ?? undefined;
    })
    .optional()
    .describe("The previous page's `nextCursor`.");
}

const limit = z.coerce.number().int().min(1).max(100).default(25);

export const listPaymentsQuery = z.object({ ...paymentFilters, cursor: cursorParam(decodeCursor), limit });

export const exportPaymentsQuery = z.object(paymentFilters);

export const paymentsCsvAnswer = z
  .string()
  .describe("CSV with a header row; amounts as decimal strings in their currency's digits.");

export const paymentsPage = z.object({
  payments: z.array(adminPaymentSchema),
  nextCursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last page.'),
});

export const adminActionSchema = z.object({
  at: z.string(),
  action: z.string(),
  actorAccountId: z.string(),
  status: z.number().int(),
});

export const paymentDetail = z.object({
  payment: adminPaymentSchema,
  timeline: paymentTimelineSchema,
  disputes: z.array(adminDisputeSchema).describe('Chargebacks against it, last reported first.'),
  attempts: z.array(adminPaymentSchema).describe('Every attempt to pay the same order, oldest first (this one included).'),
  refunds: z.array(refundSchema).describe('Its refunds and void, oldest first.'),
  adminActions: z.array(adminActionSchema).describe('What admins did with this payment, oldest first.'),
});

export const refundBody = z.object({
  amount: z
    .number('Use an amount in minor units.')
    .int('Use an amount in minor units.')
    .positive('Refund at least one minor unit.')
    .max(Number.MAX_SAFE_INTEGER)
    .optional()
    .describe('Minor units, at most what is left; leave it out to refund all that is left.'),
});

/** A refund or void done, with the payment as it now stands. */
export const refundDone = z.object({ refund: refundSchema, payment: adminPaymentSchema });

export const paymentIdParams = z.object({ id: z.string().min(1).max(64) });

export const overviewQuery = z.object({
  days: z
    .enum(OVERVIEW_PERIODS)
    .default('30')
    .transform(Number)
    .describe('The period: the last 7, 30 or 90 days (UTC), today included.'),
});

export const listSubscriptionsQuery = z.object({
  status: z.enum(SUBSCRIPTION_STATUSES).optional(),
  cursor: cursorParam(decodePageCursor),
  limit,
});
export const subscriptionsList = z.object({
  subscriptions: z.array(adminSubscriptionSchema),
  nextCursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last page.'),
});

export const subscriptionIdParams = z.object({ id: z.string().min(1).max(64) });
export const subscriptionCanceled = z.object({ subscription: adminSubscriptionSchema });

export const listDisputesQuery = z.object({
  status: z.string().max(64).optional(),
  cursor: cursorParam(decodePageCursor),
  limit,
});
export const disputesPage = z.object({ disputes: z.array(adminDisputeSchema), nextCursor: z.string().nullable() });

/** The gateway's dispute ids (gateway.md: ids in its URL paths). */
const gatewayId = (what: string) => z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, `Not ${what} id.`);
export const disputeIdParams = z.object({ id: gatewayId('a dispute') });
export const evidenceIdParams = disputeIdParams.extend({ evidenceId: gatewayId('an evidence') });

export const disputeDetail = z.object({
  dispute: adminDisputeSchema,
  replyByDate: z
    .string()
    .nullable()
    .describe('The last day the merchant can answer (YYYY-MM-DD), as the gateway has it now; null when it gives none.'),
  evidence: z
    .array(
      z.object({
        id: z.string(),
        comment: z.string().nullable().describe('The text; null for a document.'),
        url: z.string().nullable().describe('Where the gateway keeps the document; null for text.'),
        createdAt: z.string(),
        documentName: z.string().nullable().describe("The document's name as uploaded here; null for text."),
        addedBy: z.string().nullable().describe('The email of the admin who added it here; null if added elsewhere.'),
      }),
    )
    .describe('What the merchant has answered so far, oldest first.'),
});

/** A document's bytes in base64: at most 4 MB once decoded. */
const MAX_EVIDENCE_BASE64 = Math.ceil(MAX_EVIDENCE_FILE_BYTES / 3) * 4;
/** The evidence route's body limit: the largest document in base64, and room for its name and type. */
export const EVIDENCE_BODY_LIMIT = MAX_EVIDENCE_BASE64 + 4096;

/** Text or a document: one of the two (a union would report a wrong field as a wrong body). */
export const evidenceBody = z
  .object({
    text: z.string().trim().min(1, 'Write the evidence.').max(2000, 'Keep the evidence under 2000 characters.').optional(),
    file: z
      .object({
        name: z.string().trim().min(1).max(200),
        contentType: z.enum(EVIDENCE_FILE_TYPES, 'Attach a PDF, JPEG or PNG.'),
        data: z.base64('Send the document in base64.').min(1).max(MAX_EVIDENCE_BASE64, 'A document may be 4 MB at most.'),
      })
      .optional(),
  })
  .refine((body) => (body.text === undefined) !== (body.file === undefined), 'Send either text or a file.');

export const listCustomersQuery = z.object({
  email: z.string().trim().max(254).optional().describe("The email's beginning (case does not matter)."),
  cursor: cursorParam(decodePageCursor),
  limit,
});
export const customersPage = z.object({ customers: z.array(adminCustomerSchema), nextCursor: z.string().nullable() });

export const listActivityQuery = z.object({
  scope: z
    .enum(['changes', 'all'])
    .default('changes')
    .describe(
      '`changes`: what admins changed (refunds, voids, cancels, dispute answers); `all`: every admin request, reads too.',
    ),
  cursor: cursorParam(decodePageCursor),
  limit,
});
export const activityPage = z.object({ entries: z.array(activityEntrySchema), nextCursor: z.string().nullable() });
