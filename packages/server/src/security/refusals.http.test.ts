import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../index.ts';
import type { Refusal } from '../velocity/refusals.query.ts';
import { Velocity } from '../velocity/velocity.ts';
import { TestClient } from '../testing/client.ts';
import { testConfig } from '../testing/config.ts';
import { appPerTest } from '../testing/app-per-test.ts';
import { ENGINES } from '../testing/engines.ts';
import type { Db } from '../db/connect.ts';

describe.each(ENGINES.map((make) => [make().name, make] as const))(
  "challenge farming and the merchant's refusals list on %s",
  (_name, make) => {
    const engine = make();
    let app: FastifyInstance;
    let db: Db;
    beforeAll(() => engine.setup());
    afterAll(() => engine.teardown());
    appPerTest(engine, async (opened) => {
      db = opened.handle.db;
      app = await buildApp(testConfig(opened.config), { database: opened.handle, gateway: null });
      return app;
    });

    it('hands one session 30 challenges an hour, refuses the 31st, and the admin sees the refusal', async () => {
      const farmer = new TestClient(app, '203.0.113.90');
      await farmer.post('/api/orders', { items: [{ productId: 'prd_mug', quantity: 1 }] });
      for (let i = 0; i < 30; i += 1) expect((await farmer.get('/api/botcheck/challenge?action=payment')).statusCode).toBe(200);
      const refused = await farmer.get('/api/botcheck/challenge?action=payment');
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({ code: 'too_many_attempts', rule: 'botcheck_challenges_per_session_per_hour' });

      // A second after the rule's refusal: two refusals in one millisecond have no order between them (the list is newest
      // first by time, then by id, whose tail is random), and a fresh clone's run once made them so.
      const aSecondLater = () => new Date(Date.now() + 1_000);
      await new Velocity(db, aSecondLater).noteBotcheckRefusal('payment', '203.0.113.91', 'already used');
      const admin = new TestClient(app);
      expect((await admin.post('/api/session', { email: 'admin@kassa.test', password: 'kassa-demo-admin' })).statusCode).toBe(
        200,
      );
      const all = (await admin.get('/api/admin/refusals')).json<{ refusals: Refusal[]; nextCursor: string | null }>();
      expect(all.refusals.map((r) => [r.kind, r.rule, r.subject, r.reason])).toEqual([
        ['botcheck', 'botcheck_failed', '203.0.113.91', 'already used'],
        ['velocity', 'botcheck_challenges_per_session_per_hour', expect.stringMatching(/^ses_/), null],
      ]);
      const velocityOnly = (await admin.get('/api/admin/refusals?kind=velocity&limit=1')).json<{
        refusals: Refusal[];
        nextCursor: string | null;
      }>();
      expect(velocityOnly.refusals).toHaveLength(1);
      expect(velocityOnly.refusals[0]?.kind).toBe('velocity');
      expect((await admin.get('/api/admin/refusals?limit=1')).json<{ nextCursor: string | null }>().nextCursor).not.toBeNull();
      expect((await admin.get('/api/admin/refusals?cursor=made-up')).json()).toMatchObject({
        status: 400,
        code: 'validation_failed',
      });
    });
  },
);
