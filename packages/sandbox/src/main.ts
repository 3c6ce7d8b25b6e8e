import { sandboxOptionsFromEnv } from './env.ts';
import { startSandbox, type Sandbox, type SandboxOptions } from './index.ts';

// Runs the sandbox gateway alone: `npm run sandbox` from the repository root.

let options: SandboxOptions;
try {
  options = sandboxOptionsFromEnv(process.env);
} catch (error) {
  process.stderr.write(`sandbox: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
let sandbox: Sandbox;
try {
  sandbox = await startSandbox(options);
} catch (error) {
  // E.g. a corrupt data file or a busy port: one line naming it, no stack trace.
  process.stderr.write(`sandbox: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}

const { origin, host, port } = sandbox;
process.stdout.write(
  [
    `Kassa sandbox gateway listening on ${origin}`,
    `  merchant id: ${sandbox.merchantId}`,
    `  public key:  ${sandbox.publicKey}`,
    `  private key: ${sandbox.privateKey}`,
    `  state:       ${sandbox.dataFile === null ? 'in memory (set SANDBOX_DATA_FILE to keep it across restarts)' : sandbox.dataFile}`,
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
    (error: unknown) => {
      process.stderr.write(`sandbox: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
