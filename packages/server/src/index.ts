import type { FastifyInstance } from 'fastify';
import type { DemoCredentials } from './accounts/accounts.service.ts';
import { buildKassaApp } from './app.ts';
import type { AppDeps } from './app.ts';
import type { Config } from './config.ts';

export { loadConfig, ConfigError } from './config.ts';
export type { Config, Env } from './config.ts';
export type { AppDeps, KassaApp } from './app.ts';
export type { DemoCredentials } from './accounts/accounts.service.ts';
export { buildKassaApp } from './app.ts';
export { createLogger } from './logger.ts';

/** The Fastify app, ready for `inject` or `listen`. */
export async function buildApp(config: Config, deps?: AppDeps): Promise<FastifyInstance> {
  return (await buildKassaApp(config, deps)).app;
}

export interface RunningServer {
  url: string;
  /** Demo accounts to print at start (DEMO_SEED); null when seeding is off. */
  demo: DemoCredentials | null;
  close(): Promise<void>;
}

export async function startServer(config: Config, deps?: AppDeps): Promise<RunningServer> {
  const { app, demo } = await buildKassaApp(config, { seedDemoVault: true, ...deps });
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    await app.close();
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : config.port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  return { url: `http://${host}:${port}`, demo, close: () => app.close() };
}
