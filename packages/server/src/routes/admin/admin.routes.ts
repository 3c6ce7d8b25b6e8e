import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { findAccountById } from '../../accounts/accounts.repository.ts';
import { listActivity } from '../../admin/activity.query.ts';
import { auditEntriesFor } from '../../admin/audit-log.repository.ts';
import { listCustomers } from '../../admin/customers.query.ts';
import {
  acceptDispute,
  addDisputeEvidence,
  finalizeDispute,
  readDispute,
  removeDisputeEvidence,
} from '../../admin/dispute-actions.ts';
import type { DisputeActionOutcome, DisputeDeps } from '../../admin/dispute-actions.ts';
import { disputesOfPayment, listDisputes } from '../../admin/disputes.query.ts';
import { overview, overviewSchema } from '../../admin/overview.query.ts';
import { paymentsCsv } from '../../admin/payments.csv.ts';
import { attemptsOfOrder, findAdminPayment, listPayments } from '../../admin/payments.query.ts';
import { cancelAdminSubscription, listAdminSubscriptions } from '../../admin/subscriptions.query.ts';
import { paymentTimeline } from '../../admin/timeline.ts';
import type { AppContext } from '../../context.ts';
import { problemResponses } from '../../http/api-schemas.ts';
import { GatewayUnavailableError } from '../../gateway/gateway.ts';
import type { VaultGateway } from '../../gateway/vault-gateway.ts';
import { ProblemError } from '../../http/problem.ts';
import type { AdminActions } from '../../plugins/admin.ts';
import { heldKeyRef } from '../../plugins/idempotency.ts';
import type { ApiInstance } from '../../plugins/openapi.ts';
import { toRefund } from '../../refunds/refund.ts';
import { sendFinal, withGateway } from '../payment-methods/vault-http.ts';
import { refundPayment, voidPayment } from '../../refunds/refund-payment.ts';
import type { RefundDeps, RefundOutcome, RefundRequest } from '../../refunds/refund-payment.ts';
import { refundsOf } from '../../refunds/refunds.repository.ts';
import {
  activityPage,
  customersPage,
  disputeDetail,
  disputeIdParams,
  disputesPage,
  EVIDENCE_BODY_LIMIT,
  evidenceBody,
  evidenceIdParams,
  exportPaymentsQuery,
  listActivityQuery,
  listCustomersQuery,
  listDisputesQuery,
  listPaymentsQuery,
  listSubscriptionsQuery,
  overviewQuery,
  paymentDetail,
  paymentIdParams,
  paymentsCsvAnswer,
  paymentsPage,
  refundBody,
  refundDone,
  subscriptionCanceled,
  subscriptionIdParams,
  subscriptionsList,
} from './admin.schemas.ts';

/** What refunds and voids may answer besides their success. */
const REFUND_PROBLEMS = [
  'validation_failed',
  'payment_not_found',
  'payment_not_refundable',
  'refund_not_settled',
  'payment_settling',
  'refund_exceeds_amount',
  'already_refunded',
  'void_not_allowed',
  'gateway_refused',
  'gateway_unavailable',
  'gateway_not_configured',
] as const;

/**
 * Runs a refund or void use-case and maps its outcome. A refund done and a refusal are both final answers, sent and
 * saved for the Idempotency-Key, so the same key always replays its first answer: a refund refused before settlement
 * is refused again under that key (as the gateway answers its request key), and is asked once settled with a new key.
 * Only an unknown outcome (the gateway did not answer) releases the key: its retry sends the same gateway request key,
 * which cannot give back twice.
 */
async function giveBack(
  ctx: AppContext,
  request: FastifyRequest<{ Params: { id: string } }>,
  reply: FastifyReply,
  run: (deps: RefundDeps, input: RefundRequest) => Promise<RefundOutcome>,
) {
  const gateway = ctx.gateway;
  if (gateway === null) throw new ProblemError('gateway_not_configured');
  const actorAccountId = request.adminAccountId;
  if (actorAccountId === null) throw new ProblemError('forbidden');
  let outcome: RefundOutcome;
  try {
    outcome = await run(
      { db: ctx.db, gateway },
      { paymentId: request.params.id, actorAccountId, idempotencyRef: heldKeyRef(request) },
    );
  } catch (error) {
    // Outcome unknown: a retry with the same key sends the same gateway request key, which cannot give back twice.
    if (error instanceof GatewayUnavailableError) {
      request.log.warn({ err: error, paymentId: request.params.id }, 'gateway unavailable during a refund or void');
      throw new ProblemError('gateway_unavailable');
    }
    throw error;
  }
  if (outcome.kind === 'payment_not_found') return sendFinal(reply, new ProblemError('payment_not_found'));
  if (outcome.kind === 'refused') return sendFinal(reply, new ProblemError(outcome.reason));
  const payment = await findAdminPayment(ctx.db, outcome.payment.id);
  if (payment === undefined) throw new Error(`payment ${outcome.payment.id} vanished during a refund`);
  return reply.status(201).send({ refund: toRefund(outcome.refund), payment });
}

/** Runs a read or change of the gateway's subscriptions; an unreachable gateway is 502 `gateway_unavailable`. */
function withVault<T>(
  ctx: AppContext,
  request: FastifyRequest,
  run: (deps: { db: AppContext['db']; vault: VaultGateway }) => Promise<T>,
): Promise<T> {
  const vault = ctx.vault;
  if (vault === null) throw new ProblemError('gateway_not_configured');
  return withGateway(request, () => run({ db: ctx.db, vault }));
}

/** What the dispute actions may answer besides their success. */
const DISPUTE_PROBLEMS = [
  'validation_failed',
  'dispute_not_found',
  'evidence_not_found',
  'dispute_not_open',
  'gateway_refused',
  'gateway_unavailable',
  'gateway_not_configured',
] as const;

/**
 * Runs a dispute use-case at the gateway. Its refusals are final answers (sent, so the Idempotency-Key replays them);
 * an unreachable gateway is thrown as 502 and releases the key. The evidence a change added or removed goes into its
 * audit entry (with `audit`'s more), which the dispute's evidence list and the payment's timeline read.
 */
async function disputeAction(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  run: (deps: DisputeDeps) => Promise<DisputeActionOutcome>,
  audit: Record<string, unknown> = {},
) {
  const disputes = ctx.disputes;
  if (disputes === null) throw new ProblemError('gateway_not_configured');
  const outcome = await withGateway(request, () => run({ db: ctx.db, disputes }));
  switch (outcome.kind) {
    case 'done':
      if (outcome.evidenceId !== null) request.auditDetail = { evidenceId: outcome.evidenceId, ...audit };
      return outcome.detail;
    case 'gateway_refused':
      return sendFinal(reply, new ProblemError('gateway_refused', { detail: `Gateway codes: ${outcome.codes.join(', ')}.` }));
    default:
      return sendFinal(reply, new ProblemError(outcome.kind));
  }
}

/** The merchant's API: admin accounts only, every request audited (plugins/admin.ts). */
export function adminRoutes(app: ApiInstance, ctx: AppContext, actions: AdminActions): void {
  app.get(
    '/api/admin/activity',
    {
      config: { adminAction: 'activity.list' },
      schema: {
        summary: 'The audit log, newest first: who changed what and when (or every admin request, reads too)',
        tags: ['admin'],
        querystring: listActivityQuery,
        response: { 200: activityPage, ...problemResponses('validation_failed') },
      },
    },
    async (request) => {
      const { scope, cursor, limit } = request.query;
      return listActivity(ctx.db, {
        actions: scope === 'changes' ? actions.changes() : null,
        limit,
        ...(cursor !== undefined ? { after: cursor } : {}),
      });
    },
  );

  app.get(
    '/api/admin/payments',
    {
      config: { adminAction: 'payments.list' },
      schema: {
        summary: 'Payments, newest first, filtered and paged by cursor',
        tags: ['admin'],
        querystring: listPaymentsQuery,
        response: { 200: paymentsPage, ...problemResponses('validation_failed') },
      },
    },
    async (request) => {
      const { cursor, ...filter } = request.query;
      return listPayments(ctx.db, { ...filter, ...(cursor !== undefined ? { after: cursor } : {}) });
    },
  );

  app.get(
    '/api/admin/payments/export',
    {
      config: { adminAction: 'payments.export' },
      schema: {
        summary: "Every payment the filters match, as CSV (text/csv), in the list's order",
        tags: ['admin'],
        querystring: exportPaymentsQuery,
        produces: ['text/csv'],
        response: {
          200: paymentsCsvAnswer,
          ...problemResponses('validation_failed'),
        },
      },
    },
    async (request, reply) => {
      const day = new Date().toISOString().slice(0, 10);
      return (
        reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="payments-${day}.csv"`)
          .header('cache-control', 'no-store')
          // A stream goes out as it is (Fastify serializes objects only); the schema above documents what it carries.
          .send(Readable.from(paymentsCsv(ctx.db, request.query)) as unknown as string)
      );
    },
  );

  app.get(
    '/api/admin/overview',
    {
      config: { adminAction: 'overview.read' },
      schema: {
        summary: 'Volume, approvals, declines by reason and refunds per day over the last 7, 30 or 90 days',
        tags: ['admin'],
        querystring: overviewQuery,
        response: { 200: overviewSchema, ...problemResponses('validation_failed') },
      },
    },
    async (request) => overview(ctx.db, request.query.days),
  );

  app.get(
    '/api/admin/subscriptions',
    {
      config: { adminAction: 'subscriptions.list' },
      schema: {
        summary: 'Subscriptions as the gateway bills them, newest first, with their customers, paged by cursor',
        tags: ['admin'],
        querystring: listSubscriptionsQuery,
        response: {
          200: subscriptionsList,
          ...problemResponses('validation_failed', 'gateway_unavailable', 'gateway_not_configured'),
        },
      },
    },
    async (request) => {
      const { cursor, ...filter } = request.query;
      return withVault(ctx, request, (deps) =>
        listAdminSubscriptions(deps, { ...filter, ...(cursor !== undefined ? { after: cursor } : {}) }),
      );
    },
  );

  app.post(
    '/api/admin/subscriptions/:id/cancel',
    {
      config: { adminAction: 'subscriptions.cancel', idempotency: { withoutVisitor: 'not_signed_in' } },
      schema: {
        summary: 'Cancel a subscription at the gateway: it bills no more (a canceled one is answered as it is)',
        tags: ['admin'],
        params: subscriptionIdParams,
        response: {
          200: subscriptionCanceled,
          ...problemResponses(
            'validation_failed',
            'subscription_not_found',
            'subscription_not_cancelable',
            'gateway_unavailable',
            'gateway_not_configured',
          ),
        },
      },
    },
    async (request, reply) => {
      const outcome = await withVault(ctx, request, (deps) => cancelAdminSubscription(deps, request.params.id));
      if (outcome.kind === 'canceled') return { subscription: outcome.subscription };
      return sendFinal(reply, new ProblemError(outcome.kind));
    },
  );

  app.get(
    '/api/admin/disputes',
    {
      config: { adminAction: 'disputes.list' },
      schema: {
        summary: 'Disputes (chargebacks) as the gateway last reported them, newest report first',
        tags: ['admin'],
        querystring: listDisputesQuery,
        response: { 200: disputesPage, ...problemResponses('validation_failed') },
      },
    },
    async (request) => {
      const { cursor, ...filter } = request.query;
      return listDisputes(ctx.db, { ...filter, ...(cursor !== undefined ? { after: cursor } : {}) });
    },
  );

  app.get(
    '/api/admin/disputes/:id',
    {
      config: { adminAction: 'disputes.read' },
      schema: {
        summary: 'A dispute as the gateway has it now, with the evidence answered so far',
        tags: ['admin'],
        params: disputeIdParams,
        response: { 200: disputeDetail, ...problemResponses(...DISPUTE_PROBLEMS) },
      },
    },
    async (request, reply) => disputeAction(ctx, request, reply, (deps) => readDispute(deps, request.params.id)),
  );

  app.post(
    '/api/admin/disputes/:id/accept',
    {
      config: { adminAction: 'disputes.accept', idempotency: { withoutVisitor: 'not_signed_in' } },
      schema: {
        summary: 'Accept a chargeback: the cardholder keeps the money (an accepted one is answered as it is)',
        tags: ['admin'],
        params: disputeIdParams,
        response: { 200: disputeDetail, ...problemResponses(...DISPUTE_PROBLEMS) },
      },
    },
    async (request, reply) => disputeAction(ctx, request, reply, (deps) => acceptDispute(deps, request.params.id)),
  );

  app.post(
    '/api/admin/disputes/:id/evidence',
    {
      bodyLimit: EVIDENCE_BODY_LIMIT,
      config: { adminAction: 'disputes.evidence', idempotency: { withoutVisitor: 'not_signed_in' } },
      schema: {
        summary: 'Answer an open dispute with text or a document (PDF, JPEG or PNG, base64, at most 4 MB), once per key',
        tags: ['admin'],
        params: disputeIdParams,
        body: evidenceBody,
        response: { 200: disputeDetail, ...problemResponses(...DISPUTE_PROBLEMS, 'payload_too_large') },
      },
    },
    async (request, reply) => {
      const { text, file } = request.body;
      const evidence =
        file === undefined
          ? { text: text ?? '' }
          : { file: { name: file.name, contentType: file.contentType, content: Buffer.from(file.data, 'base64') } };
      // The gateway keeps no document's name: the audit entry does, for the evidence list.
      const audit = file === undefined ? { evidenceKind: 'text' } : { evidenceKind: 'document', documentName: file.name };
      const admin = request.adminAccountId === null ? undefined : await findAccountById(ctx.db, request.adminAccountId);
      return disputeAction(
        ctx,
        request,
        reply,
        (deps) => addDisputeEvidence(deps, request.params.id, evidence, admin?.email ?? null),
        audit,
      );
    },
  );

  app.delete(
    '/api/admin/disputes/:id/evidence/:evidenceId',
    {
      config: { adminAction: 'disputes.removeEvidence', idempotency: { withoutVisitor: 'not_signed_in' } },
      schema: {
        summary: "Take an item out of an open dispute's evidence before it is submitted (once per key)",
        tags: ['admin'],
        params: evidenceIdParams,
        response: { 200: disputeDetail, ...problemResponses(...DISPUTE_PROBLEMS) },
      },
    },
    async (request, reply) =>
      disputeAction(ctx, request, reply, (deps) => removeDisputeEvidence(deps, request.params.id, request.params.evidenceId)),
  );

  app.post(
    '/api/admin/disputes/:id/finalize',
    {
      config: { adminAction: 'disputes.finalize', idempotency: { withoutVisitor: 'not_signed_in' } },
      schema: {
        summary: "Send an open dispute's evidence to the bank: it is then won, lost, or with the bank (`disputed`)",
        tags: ['admin'],
        params: disputeIdParams,
        response: { 200: disputeDetail, ...problemResponses(...DISPUTE_PROBLEMS) },
      },
    },
    async (request, reply) => disputeAction(ctx, request, reply, (deps) => finalizeDispute(deps, request.params.id)),
  );

  app.get(
    '/api/admin/customers',
    {
      config: { adminAction: 'customers.list' },
      schema: {
        summary: "Shoppers' accounts, newest first, with their orders and what they paid",
        tags: ['admin'],
        querystring: listCustomersQuery,
        response: { 200: customersPage, ...problemResponses('validation_failed') },
      },
    },
    async (request) => {
      const { cursor, ...filter } = request.query;
      return listCustomers(ctx.db, { ...filter, ...(cursor !== undefined ? { after: cursor } : {}) });
    },
  );

  app.get(
    '/api/admin/payments/:id',
    {
      config: { adminAction: 'payments.read' },
      schema: {
        summary:
          "A payment with its timeline (attempts, the gateway's statuses, refunds, webhooks), disputes and what admins did with it",
        tags: ['admin'],
        params: paymentIdParams,
        response: { 200: paymentDetail, ...problemResponses('validation_failed', 'payment_not_found') },
      },
    },
    async (request) => {
      const payment = await findAdminPayment(ctx.db, request.params.id);
      if (payment === undefined) throw new ProblemError('payment_not_found');
      const [attempts, refunds, actions, disputes] = await Promise.all([
        attemptsOfOrder(ctx.db, payment.order.id),
        refundsOf(ctx.db, payment.id),
        auditEntriesFor(ctx.db, payment.id),
        disputesOfPayment(ctx.db, payment.id),
      ]);
      return {
        payment,
        timeline: await paymentTimeline(ctx, payment, attempts, refunds),
        disputes,
        attempts,
        refunds: refunds.map(toRefund),
        adminActions: actions.map((entry) => ({
          at: entry.created_at,
          action: entry.action,
          actorAccountId: entry.actor_account_id,
          status: entry.status,
        })),
      };
    },
  );

  app.post(
    '/api/admin/payments/:id/refund',
    {
      config: { adminAction: 'payments.refund', idempotency: { withoutVisitor: 'not_signed_in' } },
      schema: {
        summary: 'Refund a settled payment, in full or in part (once per Idempotency-Key)',
        tags: ['admin'],
        params: paymentIdParams,
        body: refundBody,
        response: { 201: refundDone, ...problemResponses(...REFUND_PROBLEMS) },
      },
    },
    async (request, reply) => {
      const { amount } = request.body;
      return giveBack(ctx, request, reply, (deps, input) =>
        refundPayment(deps, { ...input, ...(amount !== undefined ? { amount } : {}) }),
      );
    },
  );

  app.post(
    '/api/admin/payments/:id/void',
    {
      config: { adminAction: 'payments.void', idempotency: { withoutVisitor: 'not_signed_in' } },
      schema: {
        summary: 'Void a payment that has not settled (once per Idempotency-Key)',
        tags: ['admin'],
        params: paymentIdParams,
        response: { 201: refundDone, ...problemResponses(...REFUND_PROBLEMS) },
      },
    },
    async (request, reply) => giveBack(ctx, request, reply, voidPayment),
  );
}
