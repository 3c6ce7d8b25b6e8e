import { ConfigError, loadConfig, startServer } from './index.ts';

// Runs the server from the process environment; everything else lives in index.ts / app.ts.
try {
  const server = await startServer(loadConfig(process.env));
  const lines = [`Kassa server listening on ${server.url}`];
  if (server.demo !== null) {
    lines.push(`Demo shopper: ${server.demo.shopper.email} / ${server.demo.shopper.password}`);
    lines.push(`Demo admin:   ${server.demo.admin.email} / ${server.demo.admin.password}`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  const stop = (): void => {
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} catch (error) {
  process.stderr.write(
    `${error instanceof ConfigError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
}
