import { auditEntriesFor } from '../../admin/audit-log.repository.ts';
import { attemptsOfOrder, findAdminPayment, listPayments } from '../../admin/payments.query.ts';
import type { AppContext } from '../../context.ts';
import { problemResponses } from '../../http/api-schemas.ts';
import { ProblemError } from '../../http/problem.ts';
import type { ApiInstance } from '../../plugins/openapi.ts';
import { listPaymentsQuery, paymentDetail, paymentIdParams, paymentsPage } from './admin.schemas.ts';

/** The merchant's API: admin accounts only, every request audited (plugins/admin.ts). */
export function adminRoutes(app: ApiInstance, ctx: AppContext): void {
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
    '/api/admin/payments/:id',
    {
      config: { adminAction: 'payments.read' },
      schema: {
        summary: 'A payment with the other attempts on its order and what admins did with it',
        tags: ['admin'],
        params: paymentIdParams,
        response: { 200: paymentDetail, ...problemResponses('validation_failed', 'payment_not_found') },
      },
    },
    async (request) => {
      const payment = await findAdminPayment(ctx.db, request.params.id);
      if (payment === undefined) throw new ProblemError('payment_not_found');
      const [attempts, actions] = await Promise.all([attemptsOfOrder(ctx.db, payment.order.id), auditEntriesFor(ctx.db, payment.id)]);
      return {
        payment,
        attempts,
        adminActions: actions.map((entry) => ({ at: entry.created_at, action: entry.action, actorAccountId: entry.actor_account_id, status: entry.status })),
      };
    },
  );
}
