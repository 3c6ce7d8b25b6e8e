import { describe, expect, it } from 'vitest';
import { TEST_PASSWORD_COST } from '../testing/config.ts';
import { MIN_PASSWORD_COST, hashPassword, verifyPassword } from './passwords.ts';

describe('password hashes', () => {
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
});
