import { createHmac } from 'node:crypto';

/** The actions a bot-check solution can be issued for. */
export const BOTCHECK_ACTIONS = ['payment'] as const;
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
  return { session: createHmac('sha256', secret).update(`botcheck:${sessionId ?? 'none'}`).digest('hex').slice(0, 32), action };
}

/** A bot-check provider: hands out challenges (when it has them) and verifies the browser's token. */
export interface BotcheckVerifier {
  readonly provider: 'altcha';
  createChallenge(binding: BotcheckBinding): Promise<unknown>;
  /** Checks the token's proof and binding; `fingerprint` identifies it for the single-use replay store. */
  verify(token: string, binding: BotcheckBinding): Promise<{ ok: true; fingerprint: string; expiresAt: Date } | { ok: false; reason: string }>;
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
): Promise<{ ok: true } | { ok: false; reason: string }> {
  const verdict = await verifier.verify(token, binding);
  if (!verdict.ok) return verdict;
  return (await replays.consume(verdict.fingerprint, verdict.expiresAt)) ? { ok: true } : { ok: false, reason: 'already used' };
}
