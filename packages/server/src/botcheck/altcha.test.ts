import { createChallenge, solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/connect.ts';
import type { DatabaseHandle } from '../db/connect.ts';
import { tempSqliteFile } from '../testing/sqlite.ts';
import { AltchaVerifier } from './altcha.ts';
import { DbReplayStore } from './replay-store.ts';
import { botcheckBinding, checkBotcheck } from './verifier.ts';

const verifier = new AltchaVerifier({ secret: 'x'.repeat(32), maxCounter: 2000, challengeTtlSeconds: 60 });
const BINDING = botcheckBinding('x'.repeat(32), 'ses_shopper', 'payment');
const CONTEXT = { remoteIp: '127.0.0.1', hostnames: ['localhost'] };

async function solvedToken(v: AltchaVerifier = verifier): Promise<string> {
  const challenge = await v.createChallenge(BINDING);
  const solution = await solveChallenge({ challenge, deriveKey });
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

describe('AltchaVerifier', () => {
  let handle: DatabaseHandle | undefined;
  let cleanup: (() => void) | undefined;
  afterEach(async () => {
    await handle?.close();
    cleanup?.();
  });

  it('accepts a solved challenge quickly', async () => {
    const started = performance.now();
    const token = await solvedToken();
    expect(performance.now() - started).toBeLessThan(1000);
    expect(await verifier.verify(token, BINDING)).toMatchObject({ ok: true });
  });

  it('refuses garbage, a wrong solution and another secret', async () => {
    expect(await verifier.verify('not-base64-json', BINDING)).toEqual({ ok: false, reason: 'malformed token' });
    const token = await solvedToken();
    const payload = JSON.parse(Buffer.from(token, 'base64').toString()) as { solution: { derivedKey: string } };
    // The signed derived key is the proof of work: any other key fails.
    payload.solution.derivedKey = payload.solution.derivedKey.replace(/^./, (c) => (c === '0' ? '1' : '0'));
    expect((await verifier.verify(Buffer.from(JSON.stringify(payload)).toString('base64'), BINDING)).ok).toBe(false);
    const other = new AltchaVerifier({ secret: 'y'.repeat(32), maxCounter: 2000, challengeTtlSeconds: 60 });
    expect(await other.verify(token, BINDING)).toMatchObject({ ok: false, reason: 'invalid signature' });
  });

  it('refuses edited parameters (invalid signature) and an expired challenge', async () => {
    const token = await solvedToken();
    const edit = (change: (parameters: Record<string, unknown>) => void): string => {
      const payload = JSON.parse(Buffer.from(token, 'base64').toString()) as {
        challenge: { parameters: Record<string, unknown> };
      };
      change(payload.challenge.parameters);
      return Buffer.from(JSON.stringify(payload)).toString('base64');
    };
    // The binding moved to the attacker's session, the signature left as it was.
    const stolen = edit((parameters) => {
      parameters.data = { session: 'ses_attacker', action: 'payment' };
    });
    expect(await verifier.verify(stolen, BINDING)).toEqual({ ok: false, reason: 'invalid signature' });
    // The key's signature is one of the signed parameters: taking it out is an edit too.
    const unsigned = edit((parameters) => {
      delete parameters.keySignature;
    });
    expect(await verifier.verify(unsigned, BINDING)).toEqual({ ok: false, reason: 'invalid signature' });
    const expired = new AltchaVerifier({ secret: 'x'.repeat(32), maxCounter: 2000, challengeTtlSeconds: -1 });
    expect(await verifier.verify(await solvedToken(expired), BINDING)).toEqual({ ok: false, reason: 'expired' });
  });

  it('checks the signature over the text altcha-lib signs, whatever keys the data holds and in whatever order', async () => {
    // Array-index keys come first in numeric order in the signed text ('9' before '10'), the others by code unit ('B'
    // before 'a'): what altcha-lib's sorted copy gives.
    const challenge = await createChallenge({
      data: { session: BINDING.session, action: BINDING.action, '10': 'x', '9': 1, '0': true, B: null, a: 'é', é: '"' },
      algorithm: 'SHA-256',
      cost: 1,
      counter: 5,
      deriveKey,
      expiresAt: Math.floor(Date.now() / 1000) + 60,
      hmacSignatureSecret: 'x'.repeat(32),
      hmacKeySignatureSecret: `${'x'.repeat(32)}:key`,
    });
    const solution = await solveChallenge({ challenge, deriveKey });
    const { parameters } = challenge;
    const reordered = Object.fromEntries(Object.entries(parameters).reverse());
    for (const sent of [parameters, reordered]) {
      const token = Buffer.from(JSON.stringify({ challenge: { ...challenge, parameters: sent }, solution })).toString('base64');
      expect(await verifier.verify(token, BINDING)).toMatchObject({ ok: true });
    }
  });

  it('refuses a solution issued to another session or for another action', async () => {
    const token = await solvedToken();
    expect(await verifier.verify(token, botcheckBinding('x'.repeat(32), 'ses_attacker', 'payment'))).toEqual({
      ok: false,
      reason: 'issued to another session',
    });
    const otherAction = { ...BINDING, action: 'sign_in' } as unknown as typeof BINDING;
    expect(await verifier.verify(token, otherAction)).toEqual({ ok: false, reason: 'issued for another action' });
  });

  it('counts a token once, even when two checks race', async () => {
    const temp = tempSqliteFile();
    cleanup = temp.cleanup;
    handle = await openDatabase({ engine: 'sqlite', file: temp.file });
    const replays = new DbReplayStore(handle.db);
    const token = await solvedToken();
    const results = await Promise.all([
      checkBotcheck(verifier, replays, token, BINDING, CONTEXT),
      checkBotcheck(verifier, replays, token, BINDING, CONTEXT),
    ]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(await checkBotcheck(verifier, replays, token, BINDING, CONTEXT)).toEqual({ ok: false, reason: 'already used' });
  });
});
