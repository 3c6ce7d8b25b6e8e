import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SandboxGateway, SearchOutcome } from '../core/gateway.ts';
import { errorResponseXml, transactionXml } from './serialize.ts';
import type { XmlReply } from './serialize.ts';
import { disputeXml } from './serialize-disputes.ts';
import { subscriptionXml } from './serialize-vault.ts';
import { XmlCollection, XmlList } from './xml.ts';
import type { XmlElement } from './xml.ts';
import { section, sendXml } from './wire.ts';

// transaction.search and subscription.search answer the SDK's two steps: POST .../advanced_search_ids with the
// criteria -> every matching id (newest first) and a page size; then, per page, POST .../advanced_search with the
// same criteria plus `ids` (that page) -> the records. dispute.search is paged by number instead:
// POST /disputes/advanced_search?page=N -> that page and the total. A criterion the sandbox does not know answers
// an <api-error-response> (the SDK reports it as an error) rather than being ignored.

/** The provider's page sizes: 50 ids per transaction or subscription page, 10 disputes per page. */
const PAGE_SIZE = 50;
const DISPUTE_PAGE_SIZE = 10;

type PageRequest = FastifyRequest<{ Querystring: { page?: string } }>;

function criteria(request: FastifyRequest): Record<string, unknown> {
  return section(request.body, 'search');
}

/** The matching records' ids through `write`, or the refusal of a criterion. */
function answer(
  request: FastifyRequest,
  reply: FastifyReply,
  outcome: SearchOutcome,
  write: (ids: string[]) => XmlReply,
): FastifyReply {
  if (!outcome.ok) return sendXml(request, reply, 422, errorResponseXml([], outcome.problem, request.body));
  return sendXml(request, reply, 200, write(outcome.ids));
}

/** The records of `ids` (a page: the SDK's second step asks for at most PAGE_SIZE), those still there. */
function recordsOf<T>(ids: readonly string[], find: (id: string) => T | undefined): T[] {
  return ids.flatMap((id) => {
    const record = find(id);
    return record === undefined ? [] : [record];
  });
}

function idsXml(ids: string[]): XmlReply {
  return ['search-results', { 'page-size': PAGE_SIZE, ids: new XmlList('item', ids) }];
}

function page(total: number, pageNumber: number, pageSize: number): XmlElement {
  return { 'current-page-number': pageNumber, 'page-size': pageSize, 'total-items': total };
}

export async function searchRoutes(app: FastifyInstance, options: { gateway: SandboxGateway }): Promise<void> {
  const { gateway } = options;

  app.post('/transactions/advanced_search_ids', async (request, reply) =>
    answer(request, reply, gateway.searchTransactions(criteria(request)), idsXml),
  );

  app.post('/transactions/advanced_search', async (request, reply) =>
    answer(request, reply, gateway.searchTransactions(criteria(request)), (ids) => {
      const found = recordsOf(ids, (id) => gateway.findTransaction(id));
      return [
        'credit-card-transactions',
        new XmlCollection(page(found.length, 1, PAGE_SIZE), 'transaction', found.map(transactionXml)),
      ];
    }),
  );

  app.post('/subscriptions/advanced_search_ids', async (request, reply) =>
    answer(request, reply, gateway.searchSubscriptions(criteria(request)), idsXml),
  );

  app.post('/subscriptions/advanced_search', async (request, reply) =>
    answer(request, reply, gateway.searchSubscriptions(criteria(request)), (ids) => {
      const found = recordsOf(ids, (id) => gateway.subscriptions.find(id));
      return ['subscriptions', new XmlCollection(page(found.length, 1, PAGE_SIZE), 'subscription', found.map(subscriptionXml))];
    }),
  );

  app.post('/disputes/advanced_search', async (request: PageRequest, reply) => {
    const pageNumber = Math.max(1, Number.parseInt(request.query.page ?? '1', 10) || 1);
    return answer(request, reply, gateway.searchDisputes(criteria(request)), (ids) => [
      'disputes',
      new XmlCollection(
        page(ids.length, pageNumber, DISPUTE_PAGE_SIZE),
        'dispute',
        recordsOf(ids.slice((pageNumber - 1) * DISPUTE_PAGE_SIZE, pageNumber * DISPUTE_PAGE_SIZE), (id) =>
          gateway.findDispute(id),
        ).map(disputeXml),
      ),
    ]);
  });
}
