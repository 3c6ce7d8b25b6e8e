import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import type { Velocity } from '../velocity/velocity.ts';
import { AltchaVerifier } from './altcha.ts';
import { SiteverifyVerifier } from './siteverify.ts';
import { botcheckBinding, checkBotcheck } from './verifier.ts';
import type { BotcheckAction, BotcheckVerifier, ReplayStore } from './verifier.ts';

/** The configured provider's verifier. */
export function createBotcheckVerifier(config: Config['botcheck']): BotcheckVerifier {
  if (config.siteverify === null || config.provider === 'altcha') {
    return new AltchaVerifier({ secret: config.secret, maxCounter: config.maxCounter, challengeTtlSeconds: config.challengeTtlSeconds });
  }
  const { siteKey, secretKey, verifyUrl, minScore, verifyTimeoutMs } = config.siteverify;
  return new SiteverifyVerifier({ provider: config.provider, siteKey, secretKey, verifyUrl, minScore, timeoutMs: verifyTimeoutMs });
}

export type BotcheckCheck = (token: string) => Promise<{ ok: true } | { ok: false; reason: string }>;

/**
 * The bot-check of one request for one action: bound to the request's session, verified with its client address and
 * host, spent once. A refusal is logged with its reason (never the token) and kept for the merchant; a provider
 * that could not be asked is logged as a warning, and the action is refused (fail closed).
 */
export function botcheckOf(
  deps: { config: Config; botcheck: BotcheckVerifier; replays: ReplayStore; velocity: Velocity },
  request: FastifyRequest,
  action: BotcheckAction,
): BotcheckCheck {
  return async (token) => {
    const { botcheck: settings } = deps.config;
    const binding = botcheckBinding(settings.secret, request.kassaSession?.id ?? null, action);
    const hostnames = settings.hostnames.length > 0 ? settings.hostnames : [request.hostname];
    const verdict = await checkBotcheck(deps.botcheck, deps.replays, token, binding, { remoteIp: request.ip, hostnames });
    if (!verdict.ok) {
      const line = { provider: deps.botcheck.provider, action, reason: verdict.reason };
      if (verdict.unavailable === true) request.log.warn(line, 'bot-check could not be verified: action refused');
      else request.log.info(line, 'bot-check refused');
      await deps.velocity.noteBotcheckRefusal(action, request.ip, verdict.reason);
    }
    return verdict;
  };
}
