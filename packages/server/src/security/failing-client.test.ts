import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../index.ts';
import { TestClient } from '../testing/client.ts';
import { TEST_BOTCHECK_MAX_COUNTER, testConfig } from '../testing/config.ts';
import { sqliteEngine } from '../testing/engines.ts';
import { Velocity } from '../velocity/velocity.ts';

// Issue 9: "difficulty can rise for a client that keeps failing payments". Two declines of a session or an IP within
// the hour make its next challenges cost BOTCHECK_ELEVATED_COST_FACTOR (10) times more; other clients pay the usual.
// SQLite only: the counts are the velocity rules' (tested on both engines elsewhere).

describe('a client that keeps failing payments', () => {
  let app: FastifyInstance;
  let velocity: Velocity;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    const opened = await sqliteEngine().open();
    app = await buildApp(testConfig(opened.config), { database: opened.handle, gateway: null });
    velocity = new Velocity(opened.handle.db);
    cleanup = async () => {
      await app.close();
      await opened.cleanup();
    };
  });
  afterEach(() => cleanup());

  /** The most keys any of `n` challenges took to solve (each counter is drawn below the challenge's maximum). */
  async function hardest(client: TestClient, n = 6): Promise<number> {
    const counters: number[] = [];
    for (let i = 0; i < n; i += 1) counters.push(await client.botcheckCounter());
    return Math.max(...counters);
  }

  it('gets challenges ten times dearer after two declines from its IP; another IP does not', async () => {
    const failing = new TestClient(app, '203.0.113.66');
    expect(await hardest(failing)).toBeLessThanOrEqual(TEST_BOTCHECK_MAX_COUNTER);
    await velocity.record('decline', { ip: '203.0.113.66' });
    await velocity.record('decline', { ip: '203.0.113.66' });
    // Six draws below ten times the maximum all at or under the maximum: one chance in a million.
    expect(await hardest(failing)).toBeGreaterThan(TEST_BOTCHECK_MAX_COUNTER);
    expect(await hardest(new TestClient(app, '198.51.100.66'))).toBeLessThanOrEqual(TEST_BOTCHECK_MAX_COUNTER);
  });
});
