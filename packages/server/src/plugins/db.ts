import type { FastifyInstance } from 'fastify';
import type { DatabaseHandle } from '../db/connect.ts';

/** The database closes with the app, after in-flight requests have finished. */
export function registerDatabaseLifecycle(app: FastifyInstance, handle: DatabaseHandle, owned: boolean): void {
  if (owned) app.addHook('onClose', async () => handle.close());
}
