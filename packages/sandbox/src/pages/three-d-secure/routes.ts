import { readFileSync } from 'node:fs';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SandboxGateway } from '../../core/gateway.ts';
import { bundleScript } from '../bundle-script.ts';
import { securePage } from '../page-security.ts';

const PAGE_HTML = readFileSync(new URL('./challenge.html', import.meta.url), 'utf8');
const PAGE_CSS = readFileSync(new URL('./challenge.css', import.meta.url), 'utf8');

/**
 * The challenge page, as the lookup hands it out (`lookup.acsUrl`); the checkout adds the fragment
 * `#encodeURIComponent(JSON.stringify({ challengeId, parentOrigin }))` (its own origin, to which alone the page reports).
 */
export function challengePageUrl(origin: string): string {
  return `${origin}/three-d-secure/challenge.html`;
}

export function bundleChallengeScript(): Promise<string> {
  return bundleScript(new URL('./challenge.ts', import.meta.url));
}

type ChallengeRequest = FastifyRequest<{ Params: { id: string } }>;

/**
 * The issuer's side of a 3-D Secure challenge, on the sandbox's origin: the page and the calls it makes. The
 * challenge id (128 random bits, from the lookup) is the capability; nothing here needs the client token.
 */
export async function threeDSecurePageRoutes(app: FastifyInstance, options: { gateway: SandboxGateway }): Promise<void> {
  const { threeDSecure } = options.gateway;
  const script = await bundleChallengeScript();
  app.get('/three-d-secure/challenge.html', async (_request, reply) =>
    securePage(reply, 'text/html; charset=utf-8').send(PAGE_HTML),
  );
  app.get('/three-d-secure/challenge.js', async (_request, reply) =>
    securePage(reply, 'text/javascript; charset=utf-8').send(script),
  );
  app.get('/three-d-secure/challenge.css', async (_request, reply) =>
    securePage(reply, 'text/css; charset=utf-8').send(PAGE_CSS),
  );

  const notFound = { error: { message: 'Unknown or expired 3D Secure challenge' } };
  app.get('/three-d-secure/challenges/:id', async (request: ChallengeRequest, reply) => {
    const challenge = threeDSecure.challenge(request.params.id);
    if (challenge === undefined) return reply.code(404).header('cache-control', 'no-store').send(notFound);
    const { state, amount, currencyIsoCode, card } = challenge;
    return reply
      .header('cache-control', 'no-store')
      .send({ state, amount, currencyIsoCode, cardType: card.cardType, lastFour: card.last4 });
  });
  app.post('/three-d-secure/challenges/:id/answer', async (request: ChallengeRequest, reply) => {
    const code = (request.body as { code?: unknown } | null)?.code;
    const challenge = threeDSecure.answer(request.params.id, code);
    return challenge === undefined ? reply.code(404).send(notFound) : reply.send({ state: challenge.state });
  });
  app.post('/three-d-secure/challenges/:id/cancel', async (request: ChallengeRequest, reply) => {
    const challenge = threeDSecure.cancel(request.params.id);
    return challenge === undefined ? reply.code(404).send(notFound) : reply.send({ state: challenge.state });
  });
}
