import { createHash } from 'node:crypto';
import { createChallenge, randomInt, verifySolution } from 'altcha-lib';
import type { Challenge, Solution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { z } from 'zod';
import type { BotcheckBinding, BotcheckVerifier, Verdict } from './verifier.ts';

export interface AltchaOptions {
  secret: string;
  /** The server picks a counter below this; the browser must find it. Work grows linearly. */
  maxCounter: number;
  challengeTtlSeconds: number;
}

/** What the ALTCHA widget posts: base64 JSON `{ challenge, solution }` (altcha-lib's v2 `Payload`). */
const payloadSchema = z.object({
  challenge: z.object({
    parameters: z.object({
      algorithm: z.string(),
      nonce: z.string(),
      salt: z.string(),
      cost: z.number(),
      keyLength: z.number(),
      keyPrefix: z.string(),
      keySignature: z.string().optional(),
      memoryCost: z.number().optional(),
      parallelism: z.number().optional(),
      expiresAt: z.number().optional(),
      data: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).optional(),
    }),
    signature: z.string(),
  }),
  solution: z.object({ counter: z.number().int().nonnegative(), derivedKey: z.string(), time: z.number().optional() }),
});

/** ALTCHA, self-hosted proof of work (SHA-256, deterministic mode: the server knows the answer's key). */
export class AltchaVerifier implements BotcheckVerifier {
  readonly provider = 'altcha' as const;
  readonly #options: AltchaOptions;

  constructor(options: AltchaOptions) {
    this.#options = options;
  }

  /** `costFactor`: how many times the usual work (more while the shop is under attack, see velocity/shop-alert.ts). */
  createChallenge(binding: BotcheckBinding, costFactor = 1): Promise<Challenge> {
    return createChallenge({
      // Signed with the rest of the parameters: the binding cannot be edited.
      data: { session: binding.session, action: binding.action },
      algorithm: 'SHA-256',
      cost: 1,
      counter: randomInt(this.#options.maxCounter * costFactor),
      deriveKey,
      expiresAt: Math.floor(Date.now() / 1000) + this.#options.challengeTtlSeconds,
      hmacSignatureSecret: this.#options.secret,
      // Signing the derived key lets verification skip re-deriving it.
      hmacKeySignatureSecret: `${this.#options.secret}:key`,
    });
  }

  /** Local: no third party, so the request's address and host are not needed. */
  async verify(token: string, binding: BotcheckBinding): Promise<Verdict> {
    let decoded: unknown;
    try {
      decoded = JSON.parse(Buffer.from(token, 'base64').toString('utf8'));
    } catch {
      return { ok: false, reason: 'malformed token' };
    }
    const payload = payloadSchema.safeParse(decoded);
    if (!payload.success) return { ok: false, reason: 'malformed token' };
    const challenge: Challenge = payload.data.challenge;
    if (challenge.parameters.expiresAt === undefined) return { ok: false, reason: 'challenge without expiry' };
    const solution: Solution = payload.data.solution;
    let result: Awaited<ReturnType<typeof verifySolution>>;
    try {
      result = await verifySolution({
        challenge,
        solution,
        deriveKey,
        hmacSignatureSecret: this.#options.secret,
        hmacKeySignatureSecret: `${this.#options.secret}:key`,
      });
    } catch {
      return { ok: false, reason: 'malformed token' };
    }
    if (!result.verified)
      return {
        ok: false,
        reason: result.expired ? 'expired' : result.invalidSignature ? 'invalid signature' : 'invalid solution',
      };
    const data = challenge.parameters.data;
    if (data?.['session'] !== binding.session) return { ok: false, reason: 'issued to another session' };
    if (data['action'] !== binding.action) return { ok: false, reason: 'issued for another action' };
    // The signed challenge is unique (random nonce and salt): spending it once spends every solution of it.
    return {
      ok: true,
      fingerprint: createHash('sha256')
        .update(challenge.signature ?? '')
        .digest('hex'),
      expiresAt: new Date(challenge.parameters.expiresAt * 1000),
    };
  }
}
