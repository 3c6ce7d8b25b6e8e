// `npm start`: composes the parts on their embedded defaults. With no provider credentials configured it starts the
// sandbox gateway on its own port (its own origin, as a real gateway is), points the server at it and the sandbox's
// webhooks at the server; with credentials it leaves the sandbox out. The server itself never imports the sandbox.
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { sandboxOptionsFromEnv, startSandbox, type Sandbox } from '@kassa/sandbox';
import { createLogger, loadConfig, startServer, type Config } from '@kassa/server';
import pretty from 'pino-pretty';
import { buildWebApp, webDist } from './build-web.ts';
import { rememberedSandboxCredentials } from './sandbox-credentials.ts';

const root = join(import.meta.dirname, '..');
const env: NodeJS.ProcessEnv = { ...process.env };

// Check the server's configuration before starting anything; its database location also decides where the
// sandbox keeps its state.
const initial = configOrExit(env);
const database = initial.database;
const dataDir = database.engine === 'sqlite' ? dirname(database.file) : join(root, 'data');

// The demo shows every way to pay: each wallet and 3-D Secure are on for the sandbox's merchant unless the
// variables say otherwise (a fresh provider sandbox account has them off: `SANDBOX_WALLETS=none`, `SANDBOX_THREE_D_SECURE=0`).
env.SANDBOX_WALLETS ??= 'paypal,venmo,apple_pay,google_pay';
env.SANDBOX_THREE_D_SECURE ??= '1';

let sandbox: Sandbox | undefined;
if (!env.GATEWAY_MERCHANT_ID) {
  try {
    const options = sandboxOptionsFromEnv(env);
    // The sandbox starts first and posts its webhooks to the server: the server's port is fixed now (a free one
    // for PORT=0) so that the URL is known. SANDBOX_WEBHOOK_URL, when set, still wins.
    if (initial.port === 0) env.PORT = String(await freePort(initial.host));
    const webhookUrl =
      options.webhookUrl ?? `http://${reachableHost(initial.host)}:${env.PORT ?? initial.port}/api/gateway/webhooks`;
    sandbox = await startSandbox({
      // Like a real gateway, the sandbox remembers customers and transactions across restarts.
      dataFile: sandboxStateFile(dataDir),
      ...rememberedSandboxCredentials(join(dataDir, 'sandbox-credentials.json')),
      ...options,
      webhookUrl,
    });
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
if (sandbox) {
  Object.assign(env, {
    GATEWAY_HOST: sandbox.host,
    GATEWAY_PORT: String(sandbox.port),
    GATEWAY_SSL: 'false',
    GATEWAY_ORIGIN: sandbox.origin,
    GATEWAY_MERCHANT_ID: sandbox.merchantId,
    GATEWAY_PUBLIC_KEY: sandbox.publicKey,
    GATEWAY_PRIVATE_KEY: sandbox.privateKey,
  });
}

// Without WEB_DIST the web app is built fresh, after the configuration is known to be good.
const buildWeb = !env.WEB_DIST;
env.WEB_DIST ||= webDist(root);

const config = configOrExit(env, sandbox);
if (buildWeb) await buildWebApp(root);
// Readable lines for the person at the terminal, so the banner below stays in view: request lines only at
// LOG_LEVEL=debug (the server logs them at debug). LOG_FILE, when set, still gets the JSON lines.
const logger = createLogger(
  config,
  pretty({ colorize: process.stdout.isTTY, ignore: 'pid,hostname', translateTime: 'SYS:HH:MM:ss', singleLine: true, sync: true }),
);
const server = await startServer(config, { logger });

console.log(
  [
    '',
    'Kassa is running.',
    `  Shop:    ${server.url}/`,
    `  Admin:   ${server.url}/admin`,
    sandbox
      ? `  Sandbox gateway: ${sandbox.origin} (merchant ${sandbox.merchantId}; test card 4111 1111 1111 1111)`
      : `  Gateway: ${env.GATEWAY_HOST ?? env.GATEWAY_ENVIRONMENT}`,
    ...(server.demo
      ? [
          `  Demo shopper: ${server.demo.shopper.email} / ${server.demo.shopper.password}`,
          `  Demo admin:   ${server.demo.admin.email} / ${server.demo.admin.password}`,
        ]
      : []),
    'Press Ctrl-C to stop.',
    '',
  ].join('\n'),
);

let stopping = false;
async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  await server.close();
  await sandbox?.close();
  console.log('Kassa stopped.');
  process.exit(0);
}
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

function configOrExit(environment: NodeJS.ProcessEnv, running?: Sandbox): Config {
  try {
    return loadConfig(environment);
  } catch (error) {
    void running?.close();
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}

/** A port free on `host` right now (the server takes it moments later). */
function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, host, () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** The address the sandbox (on this machine) reaches the server at: a wildcard listen is reached on loopback. */
function reachableHost(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

/**
 * The sandbox's state file: `sandbox.sqlite`, unless the folder still holds the JSON file of an earlier version,
 * which the sandbox converts in place (and which keeps its name, so the state is not forgotten).
 */
function sandboxStateFile(dataDir: string): string {
  const earlier = join(dataDir, 'sandbox.json');
  return existsSync(earlier) ? earlier : join(dataDir, 'sandbox.sqlite');
}
