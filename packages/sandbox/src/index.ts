import { buildApp } from './app.ts';
import type { SandboxLogLevel } from './app.ts';
import { SandboxGateway } from './core/gateway.ts';
import { randomId } from './core/ids.ts';
import { createMemoryStore } from './store/memory-store.ts';

export type { SandboxLogLevel } from './app.ts';
export { bundleFrameScript } from './pages/hosted-fields/bundle.ts';
export { SandboxEnvError, sandboxOptionsFromEnv } from './env.ts';

export interface SandboxOptions {
  host?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  merchantId?: string;
  publicKey?: string;
  privateKey?: string;
  /** The merchant account's currency; USD by default, like a fresh provider sandbox account. */
  currencyIsoCode?: string;
  logger?: boolean | SandboxLogLevel;
}

export interface Sandbox {
  /** http://HOST:PORT: server API, client API and hosted pages all live here. */
  origin: string;
  host: string;
  port: number;
  merchantId: string;
  publicKey: string;
  privateKey: string;
  close(): Promise<void>;
}

/** Starts the sandbox gateway; credentials not given are generated (`^[a-z0-9]+$`). */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const host = options.host ?? '127.0.0.1';
  const merchantId = options.merchantId ?? randomId(16);
  const publicKey = options.publicKey ?? randomId(16);
  const privateKey = options.privateKey ?? randomId(32);
  const gateway = new SandboxGateway({
    merchantId,
    publicKey,
    privateKey,
    store: createMemoryStore(),
    ...(options.currencyIsoCode === undefined ? {} : { currencyIsoCode: options.currencyIsoCode }),
  });
  const app = await buildApp({ gateway, logger: options.logger ?? false });
  await app.listen({ host, port: options.port ?? 0 });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('sandbox: not listening on a TCP port');
  const port = address.port;
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  gateway.origin = origin;
  return {
    origin,
    host,
    port,
    merchantId,
    publicKey,
    privateKey,
    close: async () => {
      await app.close();
    },
  };
}
