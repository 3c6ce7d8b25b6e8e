/** A bot-check provider: hands out challenges (when it has them) and verifies the browser's token. */
export interface BotcheckVerifier {
  readonly provider: 'altcha';
  createChallenge(): Promise<unknown>;
  /** Checks the token's proof; `fingerprint` identifies it for the single-use replay store. */
  verify(token: string): Promise<{ ok: true; fingerprint: string; expiresAt: Date } | { ok: false; reason: string }>;
}

/** Remembers spent tokens. `consume` is atomic: of two concurrent calls with one fingerprint, one wins. */
export interface ReplayStore {
  consume(fingerprint: string, expiresAt: Date): Promise<boolean>;
}

/** Verify, then spend: a token counts once, even when two requests race with it. */
export async function checkBotcheck(verifier: BotcheckVerifier, replays: ReplayStore, token: string): Promise<{ ok: true } | { ok: false; reason: string }> {
  const verdict = await verifier.verify(token);
  if (!verdict.ok) return verdict;
  return (await replays.consume(verdict.fingerprint, verdict.expiresAt)) ? { ok: true } : { ok: false, reason: 'already used' };
}
