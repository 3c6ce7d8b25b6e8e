import { readFileSync } from 'node:fs';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SandboxGateway } from '../../core/gateway.ts';
import { bundleScript } from '../bundle-script.ts';
import { securePage } from '../page-security.ts';

const PAGE_HTML = readFileSync(new URL('./approve.html', import.meta.url), 'utf8');
const PAGE_CSS = readFileSync(new URL('./approve.css', import.meta.url), 'utf8');

type ApprovalRequest = FastifyRequest<{ Params: { id: string } }>;
const DECISIONS = { approve: 'approved', cancel: 'cancelled', fail: 'failed' } as const;

/** The wallets' approval page on the sandbox's origin and its calls; the approval id is the capability. */
export async function walletPageRoutes(app: FastifyInstance, options: { gateway: SandboxGateway }): Promise<void> {
  const { walletApprovals } = options.gateway;
  const script = await bundleScript(new URL('./approve.ts', import.meta.url));
  app.get('/wallets/approve.html', async (_request, reply) => securePage(reply, 'text/html; charset=utf-8').send(PAGE_HTML));
  app.get('/wallets/approve.js', async (_request, reply) => securePage(reply, 'text/javascript; charset=utf-8').send(script));
  app.get('/wallets/approve.css', async (_request, reply) => securePage(reply, 'text/css; charset=utf-8').send(PAGE_CSS));

  const notFound = { error: { message: 'Unknown or expired wallet approval' } };
  app.get('/wallets/approvals/:id', async (request: ApprovalRequest, reply) => {
    const approval = walletApprovals.find(request.params.id);
    if (approval === undefined) return reply.code(404).header('cache-control', 'no-store').send(notFound);
    const { wallet, amount, currencyIsoCode, state, vault } = approval;
    return reply.header('cache-control', 'no-store').send({ wallet, amount, currencyIsoCode, state, vault });
  });
  for (const [action, decision] of Object.entries(DECISIONS)) {
    app.post(`/wallets/approvals/:id/${action}`, async (request: ApprovalRequest, reply) => {
      const approval = walletApprovals.decide(request.params.id, decision);
      return approval === undefined ? reply.code(404).send(notFound) : reply.send({ state: approval.state });
    });
  }
}
