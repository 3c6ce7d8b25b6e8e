import { createHmac } from 'node:crypto';
import type { BotcheckProvider } from './providers.ts';

/** The actions a bot-check solution can be issued for. */
export const BOTCHECK_ACTIONS = ['payment', 'sign_in', 'sign_up', 'save_card'] as const;
export type BotcheckAction = (typeof BOTCHECK_ACTIONS)[number];

/**
 * What a solution is bound to: the visitor's session (under an HMAC, so the challenge the browser sees does not
 * carry the session id) and the action it was issued for. A solution from another session, or for another action,
 * is refused: solutions cannot be farmed in one place and spent in another.
 */
export interface BotcheckBinding {
  session: string;
  action: BotcheckAction;
}

export function botcheckBinding(secret: string, sessionId: string | null, action: BotcheckAction): BotcheckBinding {
  return {
    session: createHmac('sha256', secret)
      .update(`botcheck:${sessionId ?? 'none'}`)
      .digest('hex')
      .slice(0, 32),
    action,
  };
}

/** Where the token was sent from: third-party providers check it against what their widget saw. */
export interface VerifyContext {
  remoteIp: string;
  /** The host names the widget may have run on (the shop's). */
  hostnames: readonly string[];
}

export type Verdict =
  | { ok: true; fingerprint: string; expiresAt: Date }
  /** `unavailable`: the check could not be made (the provider down): refused, the action fails closed. */
  | { ok: false; reason: string; unavailable?: true };

/** A bot-check provider: verifies the browser's token (ALTCHA also hands out the challenges, see altcha.ts). */
export interface BotcheckVerifier {
  readonly provider: BotcheckProvider;
  /** Checks the token's proof and binding; `fingerprint` identifies it for the single-use replay store. */
  verify(token: string, binding: BotcheckBinding, context: VerifyContext): Promise<Verdict>;
}

/** Remembers spent tokens. `consume` is atomic: of two concurrent calls with one fingerprint, one wins. */
export interface ReplayStore {
  consume(fingerprint: string, expiresAt: Date): Promise<boolean>;
}

/** Verify, then spend: a token counts once, even when two requests race with it. */
export async function checkBotcheck(
  verifier: BotcheckVerifier,
  replays: ReplayStore,
  token: string,
  binding: BotcheckBinding,
  context: VerifyContext,
): Promise<{ ok: true } | { ok: false; reason: string; unavailable?: true }> {
  const verdict = await verifier.verify(token, binding, context);
  if (!verdict.ok) return verdict;
  return (await replays.consume(verdict.fingerprint, verdict.expiresAt)) ? { ok: true } : { ok: false, reason: 'already used' };
}
