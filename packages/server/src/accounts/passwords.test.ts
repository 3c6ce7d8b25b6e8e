import { describe, expect, it } from 'vitest';
import { TEST_PASSWORD_COST } from '../testing/config.ts';
import { MIN_PASSWORD_COST, hashPassword, keptHash, verifyPassword } from './passwords.ts';
import type { PasswordCost } from './passwords.ts';

/** CPU (user + system, every thread of the process: Argon2 runs off the event loop) that `run` took, in ms. */
async function cpuMs(run: () => Promise<unknown>): Promise<number> {
  const before = process.cpuUsage();
  await run();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

describe('password hashes', () => {
  it('of a password that never changes are kept once made, and a failed one is made again at the next call', async () => {
    const made = keptHash('a demo password', TEST_PASSWORD_COST);
    expect(keptHash('a demo password', TEST_PASSWORD_COST)).toBe(made);
    // A cost Argon2 refuses (under 8 KiB per lane): the failure is not kept for every later call.
    const refused: PasswordCost = { memoryKiB: 1, passes: 1 };
    const failed = keptHash('a demo password', refused);
    await expect(failed).rejects.toThrow();
    const again = keptHash('a demo password', refused);
    expect(again).not.toBe(failed);
    await expect(again).rejects.toThrow();
  });

  it('are made at the cost set, and verify whatever cost made them: the cost is read from the stored hash', async () => {
    const [production, cheap] = await Promise.all([
      hashPassword('correct horse battery', MIN_PASSWORD_COST),
      hashPassword('correct horse battery', TEST_PASSWORD_COST),
    ]);
    expect(production).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(cheap).toMatch(/^\$argon2id\$v=19\$m=256,t=1,p=1\$/);
    // Each checked under the other setting: a hash made before the setting changed still signs its owner in.
    expect(await verifyPassword(production, 'correct horse battery', TEST_PASSWORD_COST)).toBe(true);
    expect(await verifyPassword(cheap, 'correct horse battery', MIN_PASSWORD_COST)).toBe(true);
    expect(await verifyPassword(production, 'correct horse battery!', TEST_PASSWORD_COST)).toBe(false);
    expect(await verifyPassword(cheap, 'correct horse battery!', MIN_PASSWORD_COST)).toBe(false);
    expect(await verifyPassword(null, 'correct horse battery', TEST_PASSWORD_COST)).toBe(false);
  });

  it('make an unknown email (no stored hash) cost as much CPU as a wrong password of an account hashed at the cost set: a decoy made at that cost', async () => {
    // Neither the default nor the tests' cost (a fifth of the one, 32 times the other): a decoy made at any cost but the
    // one set stands out. Cheap enough to measure in a few ms of CPU a verification.
    const cost: PasswordCost = { memoryKiB: 8192, passes: 1 };
    const stored = await hashPassword('correct horse battery', cost);
    // The decoy is made at the first unknown email: not counted.
    expect(await verifyPassword(null, 'correct horse battery', cost)).toBe(false);
    // Paired and alternated, so a change of the machine's load weighs on both; the median pair, so one slow turn does not.
    const ratios: number[] = [];
    for (let pair = 0; pair < 7; pair += 1) {
      const known = await cpuMs(() => verifyPassword(stored, 'wrong horse battery', cost));
      const unknown = await cpuMs(() => verifyPassword(null, 'wrong horse battery', cost));
      ratios.push(unknown / known);
    }
    const median = ratios.sort((a, b) => a - b)[3] ?? 0;
    // Measured with the decoy made at the default cost: 4.9; at the tests' cost: 0.11; with no decoy verified: 0.005.
    expect(median).toBeGreaterThan(0.5);
    expect(median).toBeLessThan(2);
  });
});
