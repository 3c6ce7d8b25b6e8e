import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import { ProblemError } from '../http/problem.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * `signed-server-post`: the route is a server-to-server form post that authenticates itself by a signature over
     * its body (the gateway's webhooks), so it takes `application/x-www-form-urlencoded` instead of JSON. The
     * browser checks still apply: no browser has reason to send it, so a browser's cross-site request is refused.
     * `same-origin-form`: an HTML form of this site posts here (the drop-in's form-post integration), so it takes
     * `application/x-www-form-urlencoded`; in exchange the browser must PROVE the post is same-origin
     * (`Sec-Fetch-Site: same-origin`, or an `Origin` of this server): a request with neither header is refused too.
     */
    crossSite?: 'signed-server-post' | 'same-origin-form';
  }
}

const JSON_TYPE = /^application\/json\s*(;|$)/i;
const FORM_TYPE = /^application\/x-www-form-urlencoded\s*(;|$)/i;

/** The methods a route answers: a string or a list, as Fastify's onRoute gives them. */
function changesState(method: string | string[]): boolean {
  return (Array.isArray(method) ? method : [method]).some((m) => !SAFE_METHODS.has(m.toUpperCase()));
}

/** Whether the browser's Origin header names this server (the Host it was asked for). */
function sameOrigin(request: FastifyRequest, origin: string): boolean {
  try {
    return new URL(origin).host === request.headers.host;
  } catch {
    return false;
  }
}

/**
 * CSRF defence, in three layers, any of which refuses:
 * - Fetch Metadata: browsers say where a request comes from (`Sec-Fetch-Site`); only `same-origin` may change state
 *   (`same-site` is refused too: a sibling subdomain is another application);
 * - Origin: a browser without Fetch Metadata still sends Origin on a POST; it must be this server;
 * - JSON only: a cross-site form or no-cors fetch cannot send `application/json` without a CORS preflight, which this
 *   server never grants (covers clients that send neither header).
 * Requests with neither header (the SDK-like clients of the API, curl) are not a browser acting for someone else.
 */
// Synchronous (a thrown problem is the hook's error): an async hook costs every request a promise and a tick.
const refuseCrossSite: onRequestHookHandler = (request, _reply, done) => {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin') throw new ProblemError('cross_site_request');
  const origin = request.headers.origin;
  if (site === undefined && origin !== undefined && !sameOrigin(request, origin)) throw new ProblemError('cross_site_request');
  const mode = request.routeOptions.config.crossSite;
  if (mode === 'same-origin-form' && site === undefined && origin === undefined) throw new ProblemError('cross_site_request');
  const type = request.headers['content-type'] ?? '';
  const accepted = mode === undefined ? JSON_TYPE : FORM_TYPE;
  if (!accepted.test(type)) throw new ProblemError('unsupported_media_type');
  done();
};

/**
 * Adds the check to every route that changes state, whatever its URL: it runs because the request reached the route,
 * so no spelling of the path (`/%61pi/...`, `//api/...`) gets around it, as a check on a path prefix did.
 * Must be registered before the routes.
 */
export function registerCrossSiteRefusal(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    if (!changesState(route.method)) return;
    const existing = route.onRequest === undefined ? [] : Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest];
    route.onRequest = [refuseCrossSite, ...existing];
  });
}
