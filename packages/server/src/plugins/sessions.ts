import cookie from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_TTL_MS } from '../accounts/sessions.repository.ts';
import type { AppContext } from '../context.ts';
import type { SessionRow } from '../db/schema.ts';
import type { Owner } from '../orders/order.ts';
import { adoptGuestOrders } from '../orders/orders.repository.ts';

export const SESSION_COOKIE = 'kassa_session';

declare module 'fastify' {
  interface FastifyRequest {
    /** The visitor's server-side session, if the cookie names a live one. */
    kassaSession: SessionRow | null;
  }
}

/** Reads the session cookie on every request; routes create sessions only when they need one. */
export async function registerSessions(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(cookie);
  app.decorateRequest('kassaSession', null);
  app.addHook('onRequest', async (request) => {
    const token = request.cookies[SESSION_COOKIE];
    request.kassaSession = token === undefined || token === '' ? null : ((await ctx.sessions.findByToken(token)) ?? null);
  });
}

function setSessionCookie(ctx: AppContext, reply: FastifyReply, token: string): void {
  reply.setCookie(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    // An https PUBLIC_URL says so; so does the request itself (behind a proxy only with TRUST_PROXY).
    secure: ctx.config.secureCookies || reply.request.protocol === 'https',
    path: '/',
    maxAge: Math.floor(SESSION_TTL_MS / 1000),
  });
}

/** The visitor's session, creating a guest session the first time one is needed. */
export async function ensureSession(ctx: AppContext, request: FastifyRequest, reply: FastifyReply): Promise<SessionRow> {
  if (request.kassaSession !== null) return request.kassaSession;
  const { session, token } = await ctx.sessions.create(null);
  setSessionCookie(ctx, reply, token);
  request.kassaSession = session;
  return session;
}

/**
 * Signs the visitor in as `accountId`: the previous session ends and a fresh session (a new token defeats session
 * fixation) is set. A guest's orders move to the account only with the shopper's consent (`keepGuestOrders`).
 */
export async function startAccountSession(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  accountId: string,
  consent: { keepGuestOrders?: boolean | undefined },
): Promise<SessionRow> {
  const previous = request.kassaSession;
  if (previous !== null) {
    if (previous.account_id === null && consent.keepGuestOrders === true) await adoptGuestOrders(ctx.db, previous.id, accountId);
    await ctx.sessions.delete(previous.id);
  }
  const { session, token } = await ctx.sessions.create(accountId);
  setSessionCookie(ctx, reply, token);
  request.kassaSession = session;
  return session;
}

export function clearSessionCookie(reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/' });
}

/** The owner a request acts as, or null when it has no session yet. */
export function ownerOf(request: FastifyRequest): Owner | null {
  const session = request.kassaSession;
  return session === null ? null : { accountId: session.account_id, sessionId: session.id };
}
