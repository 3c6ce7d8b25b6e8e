import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach } from 'vitest';
import type { TestEngine } from './engines.ts';

export type OpenedDatabase = Awaited<ReturnType<TestEngine['open']>>;

/**
 * A fresh database for every test of the calling `describe` block, and the app `build` makes on it; after the test,
 * the app is closed, then the database. `build` keeps what the tests read (the app, the database handle) in the
 * block's own variables, so the tests read them as before.
 */
export function appPerTest(engine: TestEngine, build: (opened: OpenedDatabase) => Promise<FastifyInstance>): void {
  let close: (() => Promise<void>) | undefined;
  beforeEach(async () => {
    const opened = await engine.open();
    try {
      const app = await build(opened);
      close = async () => {
        await app.close();
        await opened.cleanup();
      };
    } catch (error) {
      await opened.cleanup();
      throw error;
    }
  });
  afterEach(async () => {
    const closing = close;
    close = undefined;
    await closing?.();
  });
}
