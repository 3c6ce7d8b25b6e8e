import { buildApp } from './app.ts';
import type { SandboxLogLevel } from './app.ts';
import { Faults } from './core/faults.ts';
import type { FaultRule, FaultSpec } from './core/faults.ts';
import { SandboxGateway } from './core/gateway.ts';
import { DEFAULT_MERCHANT_SETTINGS, parseMerchantSettings } from './core/merchant-settings.ts';
import type { MerchantSettings } from './core/merchant-settings.ts';
import { randomId } from './core/ids.ts';
import { planConfigProblems } from './core/plans.ts';
import type { PlanConfig } from './core/plans.ts';
import type { CardRules } from './core/verification.ts';
import { openFileStore } from './store/file-store.ts';
import { WebhookDeliveries } from './webhooks/deliveries.ts';
import { signedNotification } from './webhooks/notification.ts';
import { createMemoryStore } from './store/memory-store.ts';
import type { Store } from './store/store.ts';
import { settingsControl } from './test-controls/settings.ts';
import type { SandboxSettings } from './test-controls/settings.ts';

export type { SandboxLogLevel } from './app.ts';
export type { Challenge, MerchantSettings, Wallet } from './core/merchant-settings.ts';
export type { SandboxSettings } from './test-controls/settings.ts';
export type { Fault, FaultRule, FaultSpec, FaultStatus, FaultTarget } from './core/faults.ts';
export { bundleHostedFieldScripts } from './pages/hosted-fields/bundle.ts';
export { SandboxEnvError, sandboxOptionsFromEnv } from './env.ts';
export { FileStoreError } from './store/file-store.ts';
export { DEMO_PLANS } from './core/plans.ts';
export type { PlanConfig } from './core/plans.ts';
export type { CardRules } from './core/verification.ts';

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
  /**
   * Keeps the gateway's state (customers, transactions, nonces, apiRequestKeys) in this JSON file so that it
   * survives a restart; its folder is created if needed. Unset (default): in memory, gone when the sandbox stops.
   * Restart with the same credentials (the private key signs client tokens).
   */
  dataFile?: string;
  /**
   * Keeps card numbers' uniqueNumberIdentifier the same across restarts. Keep it off the sandbox's disk (never beside
   * the data file): with it and the data file, card numbers could be tried back. Unset: identifiers are stable within
   * one process only (a random key, never written).
   */
  cardIdentifierSecret?: string;
  /**
   * TEST ONLY: serve the control endpoints `/__sandbox/faults` and `/__sandbox/clock` (see the README, "Fault
   * injection", "The sandbox's clock"), for tests that run the sandbox in another process. Off by default; `faults`
   * and `advanceClock` on the handle work either way.
   */
  testControls?: boolean;
  /**
   * The recurring billing plans `plan.all` lists and subscriptions use, priced in minor units of the merchant
   * account's currency. Unset: DEMO_PLANS (`coffee-monthly`, 24.50 a month). Invalid plans stop the start.
   */
  plans?: readonly PlanConfig[];
  /** The merchant's AVS/CVV rules (CVV 200 -> gateway_rejected cvv, postal code 20000 -> avs); off by default. */
  cardRules?: CardRules;
  /**
   * The merchant account's settings the client configuration reports (README, "Merchant settings"): `challenges`
   * (default cvv and postal_code), `threeDSecure` (default false), `wallets` (default none). Not kept in the data file.
   */
  merchantSettings?: Partial<MerchantSettings>;
  /**
   * How long after submission a transaction settles by itself. Unset (default): like the provider, in the daily
   * settlement batch (23:00 UTC), everything submitted before it. `testing.settle` and friends settle at once.
   */
  settlementDelayMs?: number;
  /**
   * Where signed webhook notifications are POSTed (form-encoded `bt_signature`, `bt_payload`), retried with back-off
   * while the receiver fails (README, "Webhooks"). Unset: no webhooks, like an account with none configured.
   */
  webhookUrl?: string;
}

/** TEST ONLY: make the next requests of a kind fail as a failing gateway would (README, "Fault injection"). */
export interface SandboxFaults {
  inject(spec: FaultSpec): FaultRule;
  list(): FaultRule[];
  remove(id: string): boolean;
  clear(): void;
}

export interface Sandbox {
  /** http://HOST:PORT: server API, client API and hosted pages all live here. */
  origin: string;
  host: string;
  port: number;
  merchantId: string;
  publicKey: string;
  privateKey: string;
  /** Absolute path of the state file, or null when the state is in memory. */
  dataFile: string | null;
  faults: SandboxFaults;
  /** The merchant settings, changeable while running (tests: both readings of a rule in one run). */
  settings: SandboxSettings;
  /** Test control: moves the sandbox's time forward, runs what fell due (settlements, ...), answers the new time. */
  advanceClock(ms: number): Date;
  /** Test control: sends the webhook notifications due now (retries included); resolves once they were tried. */
  deliverWebhooks(): Promise<void>;
  /** Stops listening, then writes pending state changes (the data file is complete once this resolves). */
  close(): Promise<void>;
}

/** How often the sandbox looks for work that has fallen due (settlement batches, ...). */
const DUE_WORK_INTERVAL_MS = 1000;

/** The merchant a state file belongs to: its transactions carry that merchant's id. */
interface MerchantAccountRecord {
  merchantId: string;
}

/**
 * Starts the sandbox gateway; credentials not given are generated (`^[a-z0-9]+$`), except the merchant id of a data
 * file that already holds one, which is reused.
 */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const host = options.host ?? '127.0.0.1';
  const planProblems = planConfigProblems(options.plans ?? []);
  if (planProblems.length > 0) throw new Error(`sandbox plans are not valid:\n${planProblems.join('\n')}`);
  const delay = options.settlementDelayMs;
  if (delay !== undefined && (!Number.isSafeInteger(delay) || delay < 0)) {
    throw new RangeError(`settlementDelayMs must be a whole number of milliseconds, 0 or more, got ${delay}`);
  }
  if (options.webhookUrl !== undefined && !/^https?:\/\/[^\s]+$/.test(options.webhookUrl)) {
    throw new TypeError(`webhookUrl must be an http(s) URL, got "${options.webhookUrl}"`);
  }
  const fileStore = options.dataFile === undefined ? null : openFileStore(options.dataFile);
  const store: Store = fileStore ?? createMemoryStore();
  try {
    const account = store.collection<MerchantAccountRecord>('merchant-account');
    const saved = account.get('merchant')?.merchantId;
    if (saved !== undefined && options.merchantId !== undefined && options.merchantId !== saved) {
      throw new Error(
        `sandbox data file ${fileStore?.file ?? ''} holds the state of merchant "${saved}", not "${options.merchantId}": ` +
          'start with that merchant id (SANDBOX_MERCHANT_ID) or use another data file',
      );
    }
    const merchantId = options.merchantId ?? saved ?? randomId(16);
    if (saved === undefined) account.set('merchant', { merchantId });
    const publicKey = options.publicKey ?? randomId(16);
    const privateKey = options.privateKey ?? randomId(32);
    const settings = parseMerchantSettings(options.merchantSettings ?? {}, DEFAULT_MERCHANT_SETTINGS);
    if (!settings.ok) throw new TypeError(`sandbox merchantSettings: ${settings.problems.join('; ')}`);
    const credentials = { merchantId, publicKey, privateKey };
    // Deliveries run on the gateway's (movable) time; they start after the gateway below exists.
    const webhooks: WebhookDeliveries | null =
      options.webhookUrl === undefined
        ? null
        : new WebhookDeliveries({ store, url: options.webhookUrl, now: (): Date => gateway.now() });
    const gateway = new SandboxGateway({
      ...(webhooks === null
        ? {}
        : { events: (event, at) => webhooks.enqueue(event.kind, signedNotification(event, at, credentials), at) }),
      settings: settings.settings,
      merchantId,
      publicKey,
      privateKey,
      store,
      ...(options.currencyIsoCode === undefined ? {} : { currencyIsoCode: options.currencyIsoCode }),
      ...(options.cardIdentifierSecret === undefined ? {} : { cardIdentifierSecret: options.cardIdentifierSecret }),
      ...(options.plans === undefined ? {} : { plans: options.plans }),
      ...(options.cardRules === undefined ? {} : { cardRules: options.cardRules }),
      ...(options.settlementDelayMs === undefined ? {} : { settlement: { kind: 'delay', ms: options.settlementDelayMs } }),
    });
    const faults = new Faults();
    const app = await buildApp({ gateway, logger: options.logger ?? false, faults, testControls: options.testControls === true });
    let port: number;
    try {
      await app.listen({ host, port: options.port ?? 0 });
      const address = app.server.address();
      if (address === null || typeof address === 'string') throw new Error('sandbox: not listening on a TCP port');
      port = address.port;
    } catch (error) {
      await app.close();
      throw error;
    }
    const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
    gateway.origin = origin;
    const runDueWork = (): void => {
      gateway.runDueWork();
      void webhooks?.pump();
    };
    const dueWork = setInterval(runDueWork, DUE_WORK_INTERVAL_MS);
    dueWork.unref();
    return {
      origin,
      host,
      port,
      merchantId,
      publicKey,
      privateKey,
      dataFile: fileStore?.file ?? null,
      faults,
      settings: settingsControl(gateway),
      advanceClock: (ms) => {
        const moved = gateway.advanceClock(ms);
        void webhooks?.pump();
        return moved;
      },
      deliverWebhooks: async () => {
        await webhooks?.pump();
      },
      close: async () => {
        clearInterval(dueWork);
        try {
          await app.close();
          await webhooks?.close();
        } finally {
          store.close();
        }
      },
    };
  } catch (error) {
    try {
      store.close();
    } catch {
      // The start-up error is the one to report.
    }
    throw error;
  }
}
