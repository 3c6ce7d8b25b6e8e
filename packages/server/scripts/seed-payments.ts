/**
 * Fills the database named by DATABASE_URL with made-up payments for the dashboard (see src/testing/seed-payments.ts):
 * `npm run seed-payments -w @kassa/server -- 100000` (default 5000 over 90 days). Start the server once first, so the
 * demo admin exists (refunds are recorded as theirs). Test and demo databases only: the rows are not real.
 */
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/connect.ts';
import { seedPayments } from '../src/testing/seed-payments.ts';

const payments = Number(process.argv[2] ?? 5000);
if (!Number.isSafeInteger(payments) || payments < 1) throw new Error('usage: seed-payments [count]');
const config = loadConfig(process.env);
const handle = await openDatabase(config.database);
const started = performance.now();
try {
  const done = await seedPayments(handle.db, {
    payments,
    customers: Math.max(10, Math.ceil(payments / 20)),
    days: 90,
    seed: Date.now(),
  });
  console.log(
    `seeded ${done.payments} payments and ${done.customers} customers in ${Math.round(performance.now() - started)} ms`,
  );
} finally {
  await handle.close();
}
