import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/connect.ts';
import type { DatabaseHandle } from '../db/connect.ts';
import { tempSqliteFile } from '../testing/sqlite.ts';
import { binUnderTest } from './guard.ts';
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

  it('judges the rules and counts the tallies asked alongside (events, distinct details up to a bound) in one go', async () => {
    for (const card of ['a', 'b', 'c', 'd']) await velocity.record('card_used', { session: 'ses_1' }, card);
    for (const card of ['a', 'a', 'b', 'c']) await velocity.record('decline', { bin: '400551' }, card);
    const { exceeded, also } = await velocity.exceededAnd(
      distinctCards,
      { session: 'ses_1' },
      ['card_used'],
      [
        { action: 'decline', dimension: 'bin', subject: '400551', windowMs: 60 * 60 * 1000, distinctUpTo: 100 },
        { action: 'decline', dimension: 'bin', subject: '400551', windowMs: 60 * 60 * 1000, distinctUpTo: 2 },
        { action: 'decline', dimension: 'bin', subject: '400551', windowMs: 60 * 60 * 1000 },
        { action: 'decline', dimension: 'bin', subject: '555555', windowMs: 60 * 60 * 1000 },
      ],
    );
    expect(exceeded?.limit.rule).toBe('distinct_cards_per_session_per_hour');
    expect(also).toEqual([3, 2, 4, 0]);
    const under = await velocity.exceededAnd(distinctCards, { session: 'ses_2' }, ['card_used'], []);
    expect(under).toEqual({ exceeded: null, also: [] });
  });

  it('counts each tally asked in one go over its own window: 15 minutes and an hour, events and distinct cards', async () => {
    await velocity.record('decline', { bin: '400551' }, 'a');
    now = new Date(now.getTime() + 40 * 60 * 1000);
    await velocity.record('decline', { bin: '400551' }, 'b');
    const bin = { action: 'decline', dimension: 'bin', subject: '400551' } as const;
    const [quarter, hour] = [15 * 60 * 1000, 60 * 60 * 1000];
    const { also } = await velocity.exceededAnd(
      [],
      {},
      [],
      [
        { ...bin, windowMs: quarter },
        { ...bin, windowMs: hour },
        { ...bin, windowMs: quarter, distinctUpTo: 10 },
        { ...bin, windowMs: hour, distinctUpTo: 10 },
      ],
    );
    expect(also).toEqual([1, 2, 1, 2]);
  });

  it("keeps a subject's events as one count per minute, and refuses past the limit counted over the window", async () => {
    const perIp = DEFAULT_VELOCITY_LIMITS.payments.filter((limit) => limit.rule === 'payments_per_ip_per_hour');
    for (let i = 0; i < 400; i += 1) await velocity.record('payment', { ip: '198.18.0.1' });
    now = new Date(now.getTime() + 30 * 60 * 1000);
    await velocity.record('payment', { ip: '198.18.0.1' });
    const rows = await handle.db.selectFrom('velocity_counts').select(['minute', 'count']).orderBy('minute').execute();
    expect(rows).toEqual([
      { minute: '2026-11-23T12:00:00.000Z', count: 400 },
      { minute: '2026-11-23T12:30:00.000Z', count: 1 },
    ]);
    const exceeded = await velocity.exceeded(perIp, { ip: '198.18.0.1' }, ['payment']);
    // Refused until the first minute leaves the hour: 30 minutes from now.
    expect(exceeded).toMatchObject({ limit: { rule: 'payments_per_ip_per_hour' }, retryAfterSeconds: 1800 });
    now = new Date(now.getTime() + 31 * 60 * 1000);
    expect(await velocity.exceeded(perIp, { ip: '198.18.0.1' }, ['payment'])).toBeNull();
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

  describe('the BIN rule: a failure rate, not a volume', () => {
    const rule = DEFAULT_VELOCITY_LIMITS.binTesting;
    const answer = (kind: 'decline' | 'approval', bin: string, card: string) => velocity.record(kind, { bin }, card);
    const heldBack = async (bin: string) => (await binUnderTest(velocity, bin, rule))?.limit.rule ?? null;

    it("a popular BIN's shoppers are never held back by its volume: 200 approved, 30 declined (13%)", async () => {
      for (let i = 0; i < 200; i += 1) await answer('approval', '411111', `ok-${i}`);
      for (let i = 0; i < 30; i += 1) await answer('decline', '411111', `no-${i}`);
      // The former rule (15 declines per BIN an hour, shop-wide) refused every card of this BIN from the 16th decline.
      expect(await heldBack('411111')).toBeNull();
    });

    it('a BIN being walked through is held back at 10 declined cards when they are most of its answers', async () => {
      for (let i = 0; i < 9; i += 1) await answer('decline', '400551', `tested-${i}`);
      await answer('approval', '400551', 'shopper');
      expect(await heldBack('400551')).toBeNull(); // 9 declined cards: under the 10 the rule needs
      await answer('decline', '400551', 'tested-9');
      expect(await heldBack('400551')).toBe('bin_under_test'); // 10 of 11 answered cards declined
      // The same card declined again is one card; other BINs are not concerned.
      expect(await velocity.countDistinct('decline', 'bin', '400551', rule.windowMs, 100)).toBe(10);
      // Counted up to a bound only (the rule counts at most 1,000 declined cards of a BIN).
      expect(await velocity.countDistinct('decline', 'bin', '400551', rule.windowMs, 4)).toBe(4);
      expect(await heldBack('555555')).toBeNull();
      // A share under half lets it through again (approved cards are real charges: diluting costs the tester).
      for (let i = 0; i < 10; i += 1) await answer('approval', '400551', `paid-${i}`);
      expect(await heldBack('400551')).toBeNull();
      // Declines age out with the window.
      now = new Date(now.getTime() + 61 * 60 * 1000);
      expect(await velocity.countDistinct('decline', 'bin', '400551', rule.windowMs, 100)).toBe(0);
    });
  });
});
