import { call, DEADLINE_MS } from './client.ts';
import type {
  ActivityPage,
  CustomersPage,
  DisputeDetail,
  DisputesPage,
  Overview,
  PaymentDetail,
  PaymentsPage,
  RefundDone,
  RefusalsPage,
  SubscriptionCanceled,
  SubscriptionsList,
} from './types.gen.ts';

/** Text, or a document (PDF, JPEG or PNG) in base64. */
export type DisputeEvidenceInput = { text: string } | { file: { name: string; contentType: string; data: string } };

const { server: SERVER, gateway: GATEWAY } = DEADLINE_MS;

/** The merchant's API (`/api/admin/*`, admin accounts only). `query`: the page's own query string, passed on as is. */
export const adminApi = {
  overview: (days: number) => call<Overview>(SERVER, 'GET', `/api/admin/overview?days=${days}`),
  payments: (query: URLSearchParams) => call<PaymentsPage>(SERVER, 'GET', `/api/admin/payments?${query}`),
  /** Where the CSV of the same filters downloads from (a plain link: the browser saves the attachment). */
  paymentsExportUrl: (query: URLSearchParams) => `/api/admin/payments/export?${query}`,
  payment: (id: string) => call<PaymentDetail>(SERVER, 'GET', `/api/admin/payments/${encodeURIComponent(id)}`),
  refund: (id: string, idempotencyKey: string, amount?: number) =>
    call<RefundDone>(
      GATEWAY,
      'POST',
      `/api/admin/payments/${encodeURIComponent(id)}/refund`,
      amount === undefined ? {} : { amount },
      {
        'idempotency-key': idempotencyKey,
      },
    ),
  void: (id: string, idempotencyKey: string) =>
    call<RefundDone>(
      GATEWAY,
      'POST',
      `/api/admin/payments/${encodeURIComponent(id)}/void`,
      {},
      { 'idempotency-key': idempotencyKey },
    ),
  subscriptions: (query: URLSearchParams) => call<SubscriptionsList>(GATEWAY, 'GET', `/api/admin/subscriptions?${query}`),
  cancelSubscription: (id: string, idempotencyKey: string) =>
    call<SubscriptionCanceled>(
      GATEWAY,
      'POST',
      `/api/admin/subscriptions/${encodeURIComponent(id)}/cancel`,
      {},
      {
        'idempotency-key': idempotencyKey,
      },
    ),
  disputes: (query: URLSearchParams) => call<DisputesPage>(SERVER, 'GET', `/api/admin/disputes?${query}`),
  dispute: (id: string) => call<DisputeDetail>(GATEWAY, 'GET', `/api/admin/disputes/${encodeURIComponent(id)}`),
  /** `action`: accept the chargeback, or finalize it (send its evidence to the bank). */
  changeDispute: (id: string, action: 'accept' | 'finalize', idempotencyKey: string) =>
    call<DisputeDetail>(
      GATEWAY,
      'POST',
      `/api/admin/disputes/${encodeURIComponent(id)}/${action}`,
      {},
      { 'idempotency-key': idempotencyKey },
    ),
  addDisputeEvidence: (id: string, evidence: DisputeEvidenceInput, idempotencyKey: string) =>
    call<DisputeDetail>(GATEWAY, 'POST', `/api/admin/disputes/${encodeURIComponent(id)}/evidence`, evidence, {
      'idempotency-key': idempotencyKey,
    }),
  removeDisputeEvidence: (id: string, evidenceId: string, idempotencyKey: string) =>
    call<DisputeDetail>(
      GATEWAY,
      'DELETE',
      `/api/admin/disputes/${encodeURIComponent(id)}/evidence/${encodeURIComponent(evidenceId)}`,
      undefined,
      { 'idempotency-key': idempotencyKey },
    ),
  customers: (query: URLSearchParams) => call<CustomersPage>(SERVER, 'GET', `/api/admin/customers?${query}`),
  refusals: (query: URLSearchParams) => call<RefusalsPage>(SERVER, 'GET', `/api/admin/refusals?${query}`),
  activity: (query: URLSearchParams) => call<ActivityPage>(SERVER, 'GET', `/api/admin/activity?${query}`),
};
