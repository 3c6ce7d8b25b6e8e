import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/connect.ts';
import type { DatabaseHandle } from '../db/connect.ts';
import { tempSqliteFile } from '../testing/sqlite.ts';
import { DEFAULT_VELOCITY_LIMITS } from './limits.ts';
import { SHOP, ShopAlert } from './shop-alert.ts';
import { Velocity } from './velocity.ts';

describe('Velocity on SQLite', () => {
  let handle: DatabaseHandle;
  let cleanup: () => void;
  let now: Date;
  let velocity: Velocity;
  beforeEach(async () => {
    const temp = tempSqliteFile();
    cleanup = temp.cleanup;
    handle = await openDatabase({ engine: 'sqlite', file: temp.file });
    now = new Date('2026-11-23T12:00:00Z');
    velocity = new Velocity(handle.db, () => now);
  });
  afterEach(async () => {
    await handle.close();
    cleanup();
  });

  const distinctCards = DEFAULT_VELOCITY_LIMITS.payments.filter((limit) => limit.rule === 'distinct_cards_per_session_per_hour');

  it('counts distinct cards, not uses: the same card again passes, a fourth card in the hour is refused', async () => {
    const use = async (card: string) => {
      await velocity.record('card_used', { session: 'ses_1' }, card);
      return (await velocity.exceeded(distinctCards, { session: 'ses_1' }, ['card_used']))?.limit.rule ?? null;
    };
    for (const card of ['a', 'b', 'c', 'a', 'b', 'c']) expect(await use(card)).toBeNull();
    expect(await use('d')).toBe('distinct_cards_per_session_per_hour');
    // Another session's cards are its own.
    await velocity.record('card_used', { session: 'ses_2' }, 'e');
    expect(await velocity.exceeded(distinctCards, { session: 'ses_2' }, ['card_used'])).toBeNull();
    now = new Date(now.getTime() + 61 * 60 * 1000);
    expect(await use('d')).toBeNull();
  });

  it('raises the shop alert at 20 declines shop-wide within 15 minutes, and lowers it as they age out', async () => {
    const alert = new ShopAlert(velocity, DEFAULT_VELOCITY_LIMITS.shopAlert);
    for (let i = 0; i < 19; i += 1) await velocity.record('decline', { shop: SHOP, ip: `198.18.0.${i}` });
    expect(await alert.raised()).toBe(false);
    await velocity.record('decline', { shop: SHOP, ip: '198.18.1.1' });
    expect(await alert.raised()).toBe(true);
    now = new Date(now.getTime() + 16 * 60 * 1000);
    expect(await alert.raised()).toBe(false);
  });
});
