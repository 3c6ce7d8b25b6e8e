// `npm start`: composes the parts on their embedded defaults. With no provider credentials configured it starts the
// sandbox gateway on its own port (its own origin, as a real gateway is), points the server at it and the sandbox's
// webhooks at the server; with credentials it leaves the sandbox out. The server itself never imports the sandbox.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { sandboxOptionsFromEnv, startSandbox, type Sandbox, type SandboxOptions } from '@kassa/sandbox';
import { createLogger, loadConfig, startServer, type Config, type RunningServer } from '@kassa/server';
import pretty from 'pino-pretty';
import { buildWebApp, webDist } from './build-web.ts';
import { onFreePort } from './free-port.ts';
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

// The sandbox's variables are checked before the build too: a bad one stops the start at once.
const sandboxOptions = env.GATEWAY_MERCHANT_ID ? undefined : await orExit(() => sandboxOptionsFromEnv(env));

// Without WEB_DIST the web app is built fresh, now that the configuration is known to be good.
if (!env.WEB_DIST) {
  env.WEB_DIST = webDist(root);
  await buildWebApp(root);
}
// Readable lines for the person at the terminal, so the banner below stays in view: request lines only at
// LOG_LEVEL=debug (the server logs them at debug), and not with LOG_TERMINAL_LEVEL=info. LOG_FILE, when set, still gets
// the JSON lines at LOG_LEVEL.
const logger = createLogger(
  initial,
  pretty({ colorize: process.stdout.isTTY, ignore: 'pid,hostname', translateTime: 'SYS:HH:MM:ss', singleLine: true, sync: true }),
);
const { sandbox, server } =
  sandboxOptions === undefined
    ? { sandbox: undefined, server: await startServer(configOrExit(env), { logger }) }
    : await startSandboxAndServer(sandboxOptions);

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

/**
 * The sandbox, then the server. The sandbox posts its webhooks to the server, so the server's port is fixed first: a
 * free one for PORT=0, and another one if a process took it meanwhile. SANDBOX_WEBHOOK_URL, when set, still wins.
 */
async function startSandboxAndServer(options: SandboxOptions): Promise<{ sandbox: Sandbox; server: RunningServer }> {
  const onPort = async (port: number) => {
    const sandbox = await orExit(() =>
      startSandbox({
        // Like a real gateway, the sandbox remembers customers and transactions across restarts.
        dataFile: sandboxStateFile(dataDir),
        ...rememberedSandboxCredentials(join(dataDir, 'sandbox-credentials.json')),
        ...options,
        webhookUrl: options.webhookUrl ?? `http://${reachableHost(initial.host)}:${port}/api/gateway/webhooks`,
      }),
    );
    Object.assign(env, {
      PORT: String(port),
      GATEWAY_HOST: sandbox.host,
      GATEWAY_PORT: String(sandbox.port),
      GATEWAY_SSL: 'false',
      GATEWAY_ORIGIN: sandbox.origin,
      GATEWAY_MERCHANT_ID: sandbox.merchantId,
      GATEWAY_PUBLIC_KEY: sandbox.publicKey,
      GATEWAY_PRIVATE_KEY: sandbox.privateKey,
    });
    try {
      return { sandbox, server: await startServer(configOrExit(env, sandbox), { logger }) };
    } catch (error) {
      await sandbox.close();
      throw error;
    }
  };
  return initial.port === 0 && options.webhookUrl === undefined ? onFreePort(initial.host, onPort) : onPort(initial.port);
}

/** What `make` gives, or its error's message printed and exit code 1 (a bad setting, not a crash). */
async function orExit<T>(make: () => T | Promise<T>): Promise<T> {
  try {
    return await make();
  } catch (error) {
    exitWith(error);
  }
}

function exitWith(error: unknown): never {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}

function configOrExit(environment: NodeJS.ProcessEnv, running?: Sandbox): Config {
  try {
    return loadConfig(environment);
  } catch (error) {
    void running?.close();
    exitWith(error);
  }
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
