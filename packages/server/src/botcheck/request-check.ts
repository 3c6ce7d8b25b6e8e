import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { ProblemError } from '../http/problem.ts';
import type { ShopAlert } from '../velocity/shop-alert.ts';
import type { Velocity } from '../velocity/velocity.ts';
import { AltchaVerifier } from './altcha.ts';
import { alertSiteverifyProvider } from './providers.ts';
import { ALERT_TOKEN_PREFIX, STEPPED_UP_ACTIONS, steppedUp } from './settings.ts';
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

/** The shop alert's interactive provider (BOTCHECK_ALERT_PROVIDER), verified at its siteverify with its own secret. */
export function createAlertVerifier(config: Config['botcheck']): BotcheckVerifier | null {
  const alert = config.alert;
  if (alert === null) return null;
  return new SiteverifyVerifier({
    provider: alertSiteverifyProvider(alert.provider),
    siteKey: alert.siteKey,
    secretKey: alert.secretKey,
    verifyUrl: alert.verifyUrl,
    minScore: 0,
    timeoutMs: alert.verifyTimeoutMs,
  });
}

export type BotcheckCheck = (token: string) => Promise<{ ok: true } | { ok: false; reason: string }>;

type BotcheckDeps = {
  config: Config;
  botcheck: BotcheckVerifier;
  /** The shop alert's interactive provider; null: the alert only makes the proof of work dearer. */
  alertBotcheck: BotcheckVerifier | null;
  shopAlert: ShopAlert;
  replays: ReplayStore;
  velocity: Velocity;
};

/**
 * Which provider verifies `token` for `action`: a token marked as the alert widget's (ALERT_TOKEN_PREFIX) is the
 * alert provider's, accepted whether or not the alert is still raised (a person solved it); any other token is the
 * configured provider's, refused for payments and card saves while the alert is raised (a script buys those with CPU).
 */
async function verifierFor(
  deps: BotcheckDeps,
  action: BotcheckAction,
  token: string,
): Promise<{ verifier: BotcheckVerifier; token: string } | { refused: string }> {
  const alert = deps.alertBotcheck;
  if (alert !== null && STEPPED_UP_ACTIONS.includes(action) && token.startsWith(ALERT_TOKEN_PREFIX))
    return { verifier: alert, token: token.slice(ALERT_TOKEN_PREFIX.length) };
  if (await steppedUp(deps.config.botcheck, deps.shopAlert, action))
    return { refused: 'the shop alert asks for the interactive check' };
  return { verifier: deps.botcheck, token };
}

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
    const chosen = await verifierFor(deps, action, token);
    const provider = 'refused' in chosen ? deps.botcheck.provider : chosen.verifier.provider;
    const verdict =
      'refused' in chosen
        ? { ok: false as const, reason: chosen.refused }
        : await checkBotcheck(chosen.verifier, deps.replays, chosen.token, binding, { remoteIp: request.ip, hostnames });
    if (!verdict.ok && verdict.unavailable === true && settings.failOpen.includes(action)) {
      request.log.warn({ provider, action }, 'bot-check could not be verified: let through (BOTCHECK_FAIL_OPEN)');
      return { ok: true };
    }
    if (!verdict.ok) {
      const line = { provider, action, reason: verdict.reason };
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
