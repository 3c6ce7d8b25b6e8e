import { startSandbox } from './index.ts';

// Runs the sandbox gateway alone: `npm run sandbox` from the repository root.

function fail(message: string): never {
  process.stderr.write(`sandbox: ${message}\n`);
  process.exit(1);
}

function readPort(value: string | undefined): number {
  if (value === undefined || value === '') return 8090;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`SANDBOX_PORT must be a port number (0-65535), got "${value}"`);
  return port;
}

function readId(name: string): string | undefined {
  const value = process.env[name];
  if (value === undefined || value === '') return undefined;
  if (!/^[A-Za-z0-9_-]+$/.test(value)) fail(`${name} may contain only letters, digits, "_" and "-"`);
  return value;
}

const merchantId = readId('SANDBOX_MERCHANT_ID');
const publicKey = readId('SANDBOX_PUBLIC_KEY');
const privateKey = readId('SANDBOX_PRIVATE_KEY');
const sandbox = await startSandbox({
  host: process.env['SANDBOX_HOST'] || '127.0.0.1',
  port: readPort(process.env['SANDBOX_PORT']),
  ...(merchantId === undefined ? {} : { merchantId }),
  ...(publicKey === undefined ? {} : { publicKey }),
  ...(privateKey === undefined ? {} : { privateKey }),
});

const { origin, host, port } = sandbox;
process.stdout.write(
  [
    `Kassa sandbox gateway listening on ${origin}`,
    `  merchant id: ${sandbox.merchantId}`,
    `  public key:  ${sandbox.publicKey}`,
    `  private key: ${sandbox.privateKey}`,
    `  environment: new braintree.Environment('${host}', ${port}, 'http://${host}', false, '${host}', ${port})`,
    '',
  ].join('\n'),
);
if (process.env['SANDBOX_READY_JSON'] === '1') {
  const ready = {
    origin,
    host,
    port,
    merchantId: sandbox.merchantId,
    publicKey: sandbox.publicKey,
    privateKey: sandbox.privateKey,
  };
  process.stdout.write(`KASSA_SANDBOX_READY ${JSON.stringify(ready)}\n`);
}

let closing = false;
const shutdown = (): void => {
  if (closing) return;
  closing = true;
  sandbox.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
