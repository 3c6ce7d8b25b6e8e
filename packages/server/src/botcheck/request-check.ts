import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { ProblemError } from '../http/problem.ts';
import type { Velocity } from '../velocity/velocity.ts';
import { AltchaVerifier } from './altcha.ts';
import { SiteverifyVerifier } from './siteverify.ts';
import { botcheckBinding, checkBotcheck } from './verifier.ts';
import type { BotcheckAction, BotcheckVerifier, ReplayStore } from './verifier.ts';

/** The configured provider's verifier. */
export function createBotcheckVerifier(config: Config['botcheck']): BotcheckVerifier {
  if (config.siteverify === null || config.provider === 'altcha') {
    return new AltchaVerifier({
      secret: config.secret,
      maxCounter: config.maxCounter,
      challengeTtlSeconds: config.challengeTtlSeconds,
    });
  }
  const { siteKey, secretKey, checkbox, verifyUrl, minScore, verifyTimeoutMs } = config.siteverify;
  return new SiteverifyVerifier({
    provider: config.provider,
    siteKey,
    secretKey,
    checkbox,
    verifyUrl,
    minScore,
    timeoutMs: verifyTimeoutMs,
  });
}

export type BotcheckCheck = (token: string) => Promise<{ ok: true } | { ok: false; reason: string }>;

type BotcheckDeps = { config: Config; botcheck: BotcheckVerifier; replays: ReplayStore; velocity: Velocity };

/**
 * The bot-check of one request for one action: bound to the request's session, verified with its client address and
 * host, spent once. A refusal is logged with its reason (never the token) and kept for the merchant; a provider
 * that could not be asked is logged as a warning, and the action is refused (fail closed), unless the merchant lets
 * that low-risk action through then (BOTCHECK_FAIL_OPEN), which is logged too.
 */
export function botcheckOf(deps: BotcheckDeps, request: FastifyRequest, action: BotcheckAction): BotcheckCheck {
  return async (token) => {
    const { botcheck: settings } = deps.config;
    const binding = botcheckBinding(settings.secret, request.kassaSession?.id ?? null, action);
    const hostnames = settings.hostnames.length > 0 ? settings.hostnames : [request.hostname];
    const verdict = await checkBotcheck(deps.botcheck, deps.replays, token, binding, { remoteIp: request.ip, hostnames });
    if (!verdict.ok && verdict.unavailable === true && settings.failOpen.includes(action)) {
      request.log.warn(
        { provider: deps.botcheck.provider, action },
        'bot-check could not be verified: let through (BOTCHECK_FAIL_OPEN)',
      );
      return { ok: true };
    }
    if (!verdict.ok) {
      const line = { provider: deps.botcheck.provider, action, reason: verdict.reason };
      if (verdict.unavailable === true) request.log.warn(line, 'bot-check could not be verified: action refused');
      else request.log.info(line, 'bot-check refused');
      await deps.velocity.noteBotcheckRefusal(action, request.ip, verdict.reason);
    }
    return verdict;
  };
}

/**
 * Refuses the request (403 `botcheck_failed`) unless its token passes, when the merchant guards `action`
 * (BOTCHECK_ON); an action left unguarded passes without one.
 */
export async function requireBotcheck(
  deps: BotcheckDeps,
  request: FastifyRequest,
  action: BotcheckAction,
  token: string | undefined,
): Promise<void> {
  if (!deps.config.botcheck.actions.includes(action)) return;
  if (token === undefined) {
    await deps.velocity.noteBotcheckRefusal(action, request.ip, 'no token');
    throw new ProblemError('botcheck_failed');
  }
  if (!(await botcheckOf(deps, request, action)(token)).ok) throw new ProblemError('botcheck_failed');
}
