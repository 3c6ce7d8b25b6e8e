import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { test as base } from '@playwright/test';
import { staleInputs } from '../../scripts/start-bundle.ts';
import { startProduct, suiteEnv } from './product.ts';

// reCAPTCHA, hCaptcha and Turnstile cannot be reached from these machines: each provider's spec runs Kassa against
// the local stand-in of its widget script and siteverify endpoint (packages/server/src/testing/botcheck-standin/),
// started as its own process on its own origin, as a provider is.

export type WidgetProvider = 'recaptcha-v2' | 'recaptcha-v3' | 'hcaptcha' | 'turnstile';

/** Short watchdogs for the run (the product's defaults are 20 s and 15 s; the messages are the same). */
export const WATCHDOG_MS = 3000;

export interface Standin {
  url: string;
  providers: Record<WidgetProvider, { scriptUrl: string; verifyUrl: string }>;
  keys: { siteKey: string; secretKey: string };
  stop(): void;
}

const root = join(import.meta.dirname, '..', '..');

/** The stand-in's entry, from the repository's root. */
export const standinMain = 'packages/server/src/testing/botcheck-standin/main.ts';

/**
 * The stand-in as a process, from the run's bundle of it (`KASSA_STANDIN_BUNDLE`, built by support/global-setup.ts, as
 * the Kassas start from theirs: under tsx a start cost about 1.5 s of CPU, most of it tsx's loading), else under tsx.
 */
export function startStandin(): Promise<Standin> {
  const bundle = process.env.KASSA_STANDIN_BUNDLE;
  const stale = bundle === undefined ? [] : staleInputs(bundle);
  if (stale.length > 0) {
    return Promise.reject(
      new Error(`the bot-check stand-in's bundle is older than ${stale.join(', ')}: run the specs again to bundle it as it is`),
    );
  }
  const child: ChildProcess = spawn(
    process.execPath,
    bundle === undefined ? ['--import', 'tsx', join(root, standinMain)] : [bundle],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  return new Promise((resolve, reject) => {
    let output = '';
    child.once('exit', (code) => reject(new Error(`the bot-check stand-in exited with ${code}`)));
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const ready = /KASSA_BOTCHECK_STANDIN (\{.*\})/.exec(output);
      if (ready?.[1]) resolve({ ...(JSON.parse(ready[1]) as Omit<Standin, 'stop'>), stop: () => child.kill('SIGTERM') });
    });
  });
}

export interface ProviderShop {
  shopUrl: string;
  standinUrl: string;
  scriptUrl: string;
}

/** The stand-in and a Kassa with `provider` as its bot-check, its URLs, and `stop()` for both. */
export async function startProviderShop(provider: WidgetProvider): Promise<ProviderShop & { stop(): Promise<void> }> {
  const standin = await startStandin();
  const { scriptUrl, verifyUrl } = standin.providers[provider];
  const product = await startProduct({
    ...suiteEnv,
    BOTCHECK_PROVIDER: provider,
    BOTCHECK_SITE_KEY: standin.keys.siteKey,
    BOTCHECK_SECRET_KEY: standin.keys.secretKey,
    BOTCHECK_SCRIPT_URL: scriptUrl,
    BOTCHECK_VERIFY_URL: verifyUrl,
    BOTCHECK_ANCHOR_TIMEOUT_MS: String(WATCHDOG_MS),
    BOTCHECK_EXECUTE_TIMEOUT_MS: String(WATCHDOG_MS),
    // reCAPTCHA v2's run also has its checkbox variant, on sign-up (payments keep the invisible widget): one Kassa.
    ...(provider === 'recaptcha-v2' ? { BOTCHECK_CHECKBOX_ON: 'sign_up' } : {}),
    // The web app the run's first Kassa built.
    WEB_DIST: join(root, 'packages', 'web', 'dist'),
  });
  return {
    shopUrl: product.shopUrl,
    standinUrl: standin.url,
    scriptUrl,
    stop: async () => {
      await product.stop();
      standin.stop();
    },
  };
}

/**
 * `providerShop`, set per describe (support/botcheck-provider-specs.ts: the provider's Kassa, started as the describe's
 * first test asks for it and stopped after its last), is the tests' baseURL. Test-scoped on purpose: a worker-scoped
 * fixture or option of these specs' own gives them another worker hash, so Playwright started a new worker process and
 * browser for each provider's file; these run in the shopper specs' workers instead.
 */
export const test = base.extend<{
  providerShop: ProviderShop;
  standin: { interactive(on: boolean): Promise<void> };
}>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern.
  providerShop: async ({}, use) => use(providerShopNotSet()),
  baseURL: async ({ providerShop }, use) => use(providerShop.shopUrl),
  standin: async ({ providerShop }, use) => {
    const controls = (body: object) =>
      fetch(`${providerShop.standinUrl}/controls`, { method: 'POST', body: JSON.stringify(body) }).then(() => undefined);
    await use({ interactive: (on) => controls({ interactive: on }) });
    await controls({ interactive: false });
  },
});

function providerShopNotSet(): never {
  throw new Error('providerShop is not set: a spec of support/botcheck-provider-specs.ts sets it');
}
