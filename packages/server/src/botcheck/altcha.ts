import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { createChallenge, randomInt } from 'altcha-lib';
import type { Challenge } from 'altcha-lib';
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

/** HMAC-SHA-256 in hex, the signature of ALTCHA's v2 protocol. */
const hmacHex = (secret: string, data: string | Buffer): string => createHmac('sha256', secret).update(data).digest('hex');

/** Constant time, so a forger learns nothing from how long a refusal took. */
function sameHex(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * `v` with every object's keys sorted and undefined members left out, as altcha-lib's sortKeys makes it: copied key by
 * key into a new object (an object lists array-index keys first whatever their insertion, as the signer's copy does;
 * without a prototype, so a `__proto__` key is a member as there). Not `Object.fromEntries` of sorted entries, filtered
 * and mapped: their arrays cost 6.8-7.7 µs a verification against 4.6-6.0 (issue 10, cpu10).
 */
function sorted(v: unknown): unknown {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return v;
  const record = v as Record<string, unknown>;
  const copy: Record<string, unknown> = Object.create(null);
  for (const key of Object.keys(record).sort()) {
    const member = record[key];
    if (member !== undefined) copy[key] = sorted(member);
  }
  return copy;
}

/**
 * JSON with every object's keys sorted and undefined members left out: the text a challenge's signature covers.
 * `sorted` is the module's, not a closure made at each call (under tsx, which keeps functions' names, a named closure
 * is a `defineProperty` more: issue 10, cpu8).
 */
function canonicalJson(value: unknown): string {
  return JSON.stringify(sorted(value));
}

/** The protocol's counter is a 32-bit unsigned integer. */
const MAX_COUNTER = 0xffffffff;

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

  /**
   * Local: no third party, so the request's address and host are not needed. The checks of ALTCHA's v2 protocol on a
   * solution to a challenge this server signed: not expired, its parameters signed by us (the HMAC of their canonical
   * JSON), and the derived key the one whose signature they carry. Done with node:crypto rather than altcha-lib's
   * verifySolution, whose two HMACs go through WebCrypto: about 0.2 ms of CPU each (a thread-pool round trip) against
   * 0.01 ms, on every payment (issue 10).
   */
  async verify(token: string, binding: BotcheckBinding): Promise<Verdict> {
    let decoded: unknown;
    try {
      decoded = JSON.parse(Buffer.from(token, 'base64').toString('utf8'));
    } catch {
      return { ok: false, reason: 'malformed token' };
    }
    const payload = payloadSchema.safeParse(decoded);
    if (!payload.success) return { ok: false, reason: 'malformed token' };
    const { challenge, solution } = payload.data;
    const { expiresAt, keySignature } = challenge.parameters;
    if (expiresAt === undefined) return { ok: false, reason: 'challenge without expiry' };
    if (expiresAt < Date.now() / 1000) return { ok: false, reason: 'expired' };
    if (!sameHex(challenge.signature, hmacHex(this.#options.secret, canonicalJson(challenge.parameters))))
      return { ok: false, reason: 'invalid signature' };
    // Our challenges sign the key the counter derives (createChallenge): the solution must be that key.
    if (keySignature === undefined || !/^(?:[0-9a-f]{2})+$/.test(solution.derivedKey) || solution.counter > MAX_COUNTER)
      return { ok: false, reason: 'invalid solution' };
    const keyCheck = hmacHex(`${this.#options.secret}:key`, Buffer.from(solution.derivedKey, 'hex'));
    if (!sameHex(keySignature, keyCheck)) return { ok: false, reason: 'invalid solution' };
    const data = challenge.parameters.data;
    if (data?.['session'] !== binding.session) return { ok: false, reason: 'issued to another session' };
    if (data['action'] !== binding.action) return { ok: false, reason: 'issued for another action' };
    // The signed challenge is unique (random nonce and salt): spending it once spends every solution of it.
    return {
      ok: true,
      fingerprint: createHash('sha256').update(challenge.signature).digest('hex'),
      expiresAt: new Date(expiresAt * 1000),
    };
  }
}
