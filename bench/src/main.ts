import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startTestPostgres } from '../../packages/server/src/testing/postgres.ts';
import type { TestPostgres } from '../../packages/server/src/testing/postgres.ts';
import { measureCheckoutBundle } from '../../scripts/checkout-bundle.ts';
import { checkoutTiming } from './checkout.ts';
import { ROOT } from './processes.ts';
import { formatProfile } from './profile.ts';
import { failuresOf, formatTable, growthOf, machineAtStart, seededSuffix, withGoalFigures } from './report.ts';
import type { Report } from './report.ts';
import { fixedWarmUp, interleaved, STEADY_WARM_UP, warmedThenMeasured, warmUp } from './load.ts';
import { SDK_ROWS, helloWorld, readyPayments, readySdkAlone } from './scenarios.ts';
import {
  SEEDED_POSTGRES_DATABASE,
  copySeededFile,
  seededPostgresCluster,
  seededSandboxFile,
  seededSqliteFile,
} from './seed-cache.ts';
import type { Seeded } from './seed-cache.ts';
import type { Measurement, ReadyPayments, RowDatabase, RunSize } from './scenarios.ts';
import { sandboxDataFile, startHelloWorld, startKassa, startSandbox } from './stack.ts';
import type { RunningKassa, RunningSandbox } from './stack.ts';

// `npm run bench`: Kassa's payments end to end on SQLite and PostgreSQL (one and two instances), with the baselines
// measured in the same run on the same machine, since a shared machine's figures are only comparable side by side.
// `--smoke` is the seconds-long run `npm test` makes so the benchmark cannot rot: few requests, every one must succeed.

const ENGINES = ['sqlite', 'postgres', 'postgres-2'] as const;
const SEEDED_SANDBOX = 'sandbox-seeded';
type Engine = (typeof ENGINES)[number];

const { values } = parseArgs({
  options: {
    smoke: { type: 'boolean', default: false },
    payments: { type: 'string' },
    warmup: { type: 'string' },
    connections: { type: 'string' },
    engines: { type: 'string' },
    'sandbox-in-memory': { type: 'boolean', default: false },
    profile: { type: 'boolean', default: false },
    before: { type: 'string' },
    'seed-payments': { type: 'string' },
    'seeded-first': { type: 'boolean', default: false },
    'sdk-parts': { type: 'string' },
    'seed-only': { type: 'boolean', default: false },
    checkout: { type: 'string' },
    out: { type: 'string' },
  },
});

const smoke = values.smoke === true;
const size: RunSize = {
  items: smoke ? 48 : Number(values.payments ?? 3000),
  // The smoke's two batches of 8 go through the steady warm-up's steps without waiting for a steady state.
  warmup: fixedWarmUp(values.warmup) ?? (smoke ? { batch: 8, least: 0, cap: 16 } : STEADY_WARM_UP),
  helloWorldMs: smoke ? 300 : 5000,
};
const connectionCounts = (values.connections ?? (smoke ? '16' : '16,64')).split(',').map(Number);
const engines = (values.engines ?? (smoke ? 'sqlite,postgres' : ENGINES.join(','))).split(',') as Engine[];
for (const engine of engines)
  if (!ENGINES.includes(engine)) throw new Error(`unknown engine ${engine}: one of ${ENGINES.join(', ')}`);
const seedPaymentCount = values['seed-payments'] === undefined ? 0 : Number(values['seed-payments']);
if (!Number.isInteger(seedPaymentCount) || seedPaymentCount < 0) throw new Error('--seed-payments takes a whole number');
// An earlier checkout's server would refuse a database migrated by this one's seeder.
if (seedPaymentCount > 0 && values.before !== undefined) throw new Error('--seed-payments and --before do not go together');
// The seeded rows' sandbox holds the payments in its data file; an empty one in memory would not compare.
if (seedPaymentCount > 0 && values['sandbox-in-memory'] === true)
  throw new Error('--seed-payments and --sandbox-in-memory do not go together');
if (values['seed-only'] === true && seedPaymentCount === 0) throw new Error('--seed-only needs --seed-payments N');
const sdkParts = Number(values['sdk-parts'] ?? 4);
if (!Number.isInteger(sdkParts) || sdkParts < 1) throw new Error('--sdk-parts takes a whole number from 1');
const checkoutRuns = Number(values.checkout ?? (smoke ? 0 : 10));
if (!Number.isInteger(checkoutRuns) || checkoutRuns < 0) throw new Error('--checkout takes a whole number');
const log = (line: string): void => {
  process.stdout.write(`${line}\n`);
};
const seconds = (since: number): string => ((Date.now() - since) / 1000).toFixed(0);

/** A seeded file from the cache (seed-cache.ts), made first if it is not there, and how long that took. */
async function seededLogged(what: string, seed: () => Promise<Seeded>): Promise<Seeded> {
  const started = Date.now();
  const seededFile = await seed();
  log(`${seededFile.how === 'made' ? 'seeded' : 'found cached'} ${what} in ${seconds(started)} s`);
  return seededFile;
}
const seededSandbox = (): Promise<Seeded> =>
  seededLogged(`${seedPaymentCount} payments in the sandbox`, () => seededSandboxFile(seedPaymentCount));
const seededSqlite = (): Promise<Seeded> =>
  seededLogged(`${seedPaymentCount} payments on SQLite`, () => seededSqliteFile(seedPaymentCount));
const seededPostgres = (): Promise<Seeded> =>
  seededLogged(`${seedPaymentCount} payments on PostgreSQL`, () => seededPostgresCluster(seedPaymentCount));

if (values['seed-only'] === true) {
  // Seeding takes minutes to half an hour, CPU and disk: made apart from the measured runs, which then copy the files.
  await seededSandbox();
  if (engines.includes('sqlite')) await seededSqlite();
  if (engines.some((engine) => engine !== 'sqlite')) await seededPostgres();
  process.exit(0);
}
const dir = mkdtempSync(join(tmpdir(), 'kassa-bench-'));
if (values.profile === true) size.profileDir = dir;
const out = resolve(values.out ?? join(ROOT, '.tmp', smoke ? 'bench-smoke.json' : 'bench.json'));

// Fixed, test-only secrets: two instances must share them (sessions and bot-check solutions made by either).
const SHARED_SECRETS = {
  SESSION_SECRET: 'bench-only-session-secret-0123456789abcdef',
  BOTCHECK_SECRET: 'bench-only-botcheck-secret-0123456789abcdef',
};

const report: Report = {
  startedAt: new Date().toISOString(),
  machine: machineAtStart(),
  options: {
    smoke,
    ...size,
    connections: connectionCounts,
    engines,
    sandbox: values['sandbox-in-memory'] === true ? 'in memory' : 'data file',
    seedPayments: seedPaymentCount,
    seededFirst: values['seeded-first'] === true,
    checkoutRuns,
  },
  rows: [],
};
const rows: Measurement[] = [];
let sandbox: RunningSandbox | undefined;
/** With --seed-payments: the seeded rows' sandbox, which holds that many payments already. */
let seededGateway: RunningSandbox | undefined;
let postgres: TestPostgres | undefined;

try {
  sandbox = await startSandbox(dir, {
    inMemory: values['sandbox-in-memory'] === true,
    ...(size.profileDir === undefined ? {} : { profileDir: size.profileDir }),
  });
  const hello = await startHelloWorld(dir);
  try {
    for (const connections of connectionCounts) {
      rows.push(await helloWorld(hello, connections, size));
      log(`measured the Fastify hello-world at ${connections} connections`);
    }
  } finally {
    await hello.process.stop();
  }
  if (seedPaymentCount > 0) {
    // The gateway's side of growth: the seeded rows charge at a sandbox of their own that holds as many payments.
    const copyStarted = Date.now();
    copySeededFile((await seededSandbox()).path, sandboxDataFile(dir, SEEDED_SANDBOX));
    log(`copied the seeded sandbox in ${seconds(copyStarted)} s`);
    seededGateway = await startSandbox(dir, {
      name: SEEDED_SANDBOX,
      ...(size.profileDir === undefined ? {} : { profileDir: size.profileDir }),
    });
  }
  // With --seed-payments the SDK's rows are measured at the seeded sandbox too: the gateway's own growth, and the same
  // calls served by both sandboxes before Kassa's rows. Measured at the empty one only, the seeded one came to Kassa's
  // rows with V8 still compiling its code (issue 10, growth5: 0.35-0.41 ms of its threads other than the event loop
  // per payment after a 300-payment warm-up, 0.08 after 2,900), which the growth figures counted as the million's.
  // Both warmed up, then measured in parts interleaved (load.ts interleaved): measured whole one after the other, the
  // row measured first was the slower whichever sandbox it charged at.
  const sdkSandboxes = [
    { sandbox, suffix: '' },
    ...(seededGateway === undefined ? [] : [{ sandbox: seededGateway, suffix: seededSuffix(seedPaymentCount) }]),
  ];
  if (values['seeded-first'] === true) sdkSandboxes.reverse();
  for (const connections of connectionCounts) {
    for (const call of ['sale', 'find'] as const) {
      const ready: Array<Awaited<ReturnType<typeof readySdkAlone>>> = [];
      try {
        for (const { sandbox: rowSandbox } of sdkSandboxes) ready.push(await readySdkAlone(rowSandbox, call, connections, size));
        const measured = await warmedThenMeasured(ready, size.warmup, () => interleaved(ready, size.items, sdkParts));
        for (const [i, row] of measured.entries())
          rows.push({ scenario: `${SDK_ROWS[call]}${sdkSandboxes[i]?.suffix ?? ''}`, ...row });
      } finally {
        await Promise.all(ready.map((row) => row.close()));
      }
      log(`measured the SDK's ${call} alone at ${connections} connections`);
    }
  }
  // With --before: the same rows from an earlier checkout, so a change is measured against what it changed. With
  // --seed-payments: the same rows again on a database that already holds that many payments (growth). The variants'
  // servers run side by side and their rows are measured at the same moment, so the machine's load (which moves a lot
  // on a shared machine) weighs on each the same.
  const variants: Array<{ label: string; root: string; sandbox: RunningSandbox; seeded?: number }> =
    values.before === undefined
      ? [{ label: 'Kassa', root: ROOT, sandbox }]
      : [
          { label: 'Kassa before', root: resolve(values.before), sandbox },
          { label: 'Kassa', root: ROOT, sandbox },
        ];
  if (seededGateway !== undefined) {
    const seededVariant = { label: 'Kassa', root: ROOT, sandbox: seededGateway, seeded: seedPaymentCount };
    // The server started (and its payments prepared) first has measured more CPU per payment: --seeded-first swaps.
    if (values['seeded-first'] === true) variants.unshift(seededVariant);
    else variants.push(seededVariant);
  }
  for (const engine of engines) {
    const count = engine === 'postgres-2' ? 2 : 1;
    const started: Array<{ scenario: string; instances: RunningKassa[]; sandbox: RunningSandbox; database?: RowDatabase }> = [];
    try {
      for (const variant of variants) {
        let databaseUrl = join(dir, `${variant.label}-${engine}-${variant.seeded ?? 0}.sqlite`.replace(/\s+/g, '-'));
        let database: RowDatabase | undefined;
        if (engine !== 'sqlite') {
          if (postgres === undefined) {
            // With --seed-payments the server starts on a copy of the seeded one (seed-cache.ts), which holds the
            // seeded database beside the empty rows' (each row then copies it: CREATE DATABASE ... TEMPLATE, seconds).
            const copyStarted = Date.now();
            const copyOf = seedPaymentCount > 0 ? (await seededPostgres()).path : undefined;
            postgres = await startTestPostgres(copyOf === undefined ? {} : { copyOf });
            if (copyOf !== undefined) log(`started PostgreSQL on a copy of the seeded one in ${seconds(copyStarted)} s`);
          }
          const server = postgres;
          if (variant.seeded === undefined) databaseUrl = await server.createDatabase();
          else {
            const copyStarted = Date.now();
            databaseUrl = await server.createDatabase({ template: server.databaseUrl(SEEDED_POSTGRES_DATABASE) });
            log(`copied the seeded PostgreSQL database for ${engine} in ${seconds(copyStarted)} s`);
          }
          database = { postmasterPid: postgres.address.pid, name: new URL(databaseUrl).pathname.slice(1) };
        }
        // SQLite's seeded file is kept between runs; PostgreSQL's database lives in its server (above).
        if (variant.seeded !== undefined && engine === 'sqlite') {
          const copyStarted = Date.now();
          copySeededFile((await seededSqlite()).path, databaseUrl);
          log(`copied the seeded SQLite database in ${seconds(copyStarted)} s`);
        }
        const options = {
          env: SHARED_SECRETS,
          root: variant.root,
          ...(size.profileDir === undefined ? {} : { profileDir: size.profileDir }),
        };
        const seeded = variant.seeded === undefined ? '' : seededSuffix(variant.seeded);
        const scenario = `${variant.label} on ${engine === 'sqlite' ? 'SQLite' : count === 1 ? 'PostgreSQL' : 'PostgreSQL, 2 instances'}${seeded}`;
        const instances: RunningKassa[] = [];
        started.push({ scenario, instances, sandbox: variant.sandbox, ...(database === undefined ? {} : { database }) });
        // Named `kassa…` (the goal figures add up those processes' CPU), one log file each.
        const base = variant.seeded === undefined ? variant.label.toLowerCase().replace(/\s+/g, '-') : 'kassa-seeded';
        for (let i = 1; i <= count; i += 1)
          instances.push(await startKassa(dir, count === 1 ? base : `${base}-${i}`, variant.sandbox, databaseUrl, options));
      }
      for (const connections of connectionCounts) {
        const ready: ReadyPayments[] = [];
        try {
          const sharing = { alongside: started.length > 1, ownSandbox: seededGateway !== undefined };
          for (const { scenario, instances, sandbox: rowSandbox, database } of started)
            ready.push(await readyPayments(scenario, instances, rowSandbox, connections, size, sharing, database));
          const warmed = await warmUp(ready, size.warmup, true);
          const measures: Array<() => Promise<Measurement>> = [];
          for (const row of ready) measures.push(await row.measured());
          const measured = await Promise.all(measures.map((measure) => measure()));
          rows.push(...measured.map((row, i) => ({ ...row, warmUp: warmed[i] })));
        } finally {
          await Promise.all(ready.map((row) => row.close()));
        }
        log(`measured ${started.map(({ scenario }) => scenario).join(' and ')} at ${connections} connections`);
      }
    } finally {
      await Promise.all(started.flatMap(({ instances }) => instances.map((instance) => instance.process.stop())));
    }
  }
} finally {
  await sandbox?.process.stop();
  await seededGateway?.process.stop();
  await postgres?.stop();
}
if (checkoutRuns > 0) {
  report.checkout = await checkoutTiming(checkoutRuns, values.before === undefined ? undefined : resolve(values.before));
  log('measured the checkout in Chromium');
  report.checkoutBundle = await measureCheckoutBundle();
  log("measured the checkout's bundle");
}

report.machine.loadAverageAtEnd = loadavg();
report.rows = withGoalFigures(rows);
if (seedPaymentCount > 0) report.growth = growthOf(report.rows);
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
for (const row of report.rows) {
  for (const profile of row.profiles ?? [])
    log(`\n${row.scenario}, ${row.connections} connections: ${formatProfile(profile.name, profile.summary)}`);
}
log(`\n${formatTable(report)}\n\nJSON: ${out}`);
const failures = failuresOf(report);
if (failures.length > 0) {
  log(`FAILED requests or checkouts (logs kept in ${dir}):\n${failures.join('\n')}`);
  process.exitCode = 1;
} else {
  rmSync(dir, { recursive: true, force: true });
}
