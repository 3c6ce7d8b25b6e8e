// The published package, as another React app gets it: `npm pack` (which builds dist/ first), installed offline into
// a scratch app, type-checked against its declarations and imported as an ES module by Node; the real provider's entry
// bundled by esbuild and Vite and run in Node. React, braintree-web and the library's dependencies come linked from this
// workspace's node_modules (no registry here); everything of @kassa/checkout comes from the tarball alone.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build as esbuild } from 'esbuild';
import { build, type Rollup } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const packageRoot = join(import.meta.dirname, '..');
const workspaceModules = join(packageRoot, '..', '..', 'node_modules');
// TypeScript 7's native compiler, as `npm run typecheck` uses: seconds where TypeScript 6 took a minute under load.
const tsc = join(workspaceModules, 'typescript-7', 'bin', 'tsc');
const scratch = mkdtempSync(join(tmpdir(), 'kassa-consumer-'));

// NODE_ENV is vitest's 'test' here: the build must see a production environment, as `npm pack` anywhere else does.
const run = (command: string, args: readonly string[], cwd: string): string =>
  execFileSync(command, args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_ENV: 'production' },
  });

const consumer = `
import { useState } from 'react';
import { Checkout, CheckoutError, SUPPORTED_LOCALES, type CheckoutInstance, type PaymentMethodResult, type ProviderClient, type Translations } from '@kassa/checkout';
import { create } from '@kassa/checkout/dropin';
import { PaymentMethodMark } from '@kassa/checkout/marks';
import { createSandboxProvider } from '@kassa/checkout/sandbox';

const wording: Translations = { 'error.checkEntries': 'Please check the card.' };
export const rightToLeft = SUPPORTED_LOCALES.includes('ar');

export function Pay({ token }: { token: string }) {
  const [instance, setInstance] = useState<CheckoutInstance | null>(null);
  const pay = async (): Promise<string> => {
    const method: PaymentMethodResult = await instance!.requestPaymentMethod();
    return method.nonce;
  };
  return (
    <Checkout
      authorization={token}
      options={{ locale: 'ar-EG', translations: wording, card: { cardholderName: { required: true } } }}
      onReady={setInstance}
      onError={(error: CheckoutError) => console.log(error.code, pay)}
    />
  );
}

export const wallets = <Checkout authorization="token" options={{ paypal: { amount: '12.00', offerSave: true }, venmo: { amount: '12.00' } }} />;
// @ts-expect-error a wallet's amount is the provider's decimal string
export const badAmount = <Checkout authorization="token" options={{ paypal: { amount: 12 } }} />;
export const mark = <PaymentMethodMark type="PayPalAccount" />;
// @ts-expect-error only the kinds of saved methods have a mark
export const noMark = <PaymentMethodMark type="SamsungPayCard" />;
// An integrator's provider: the default one with its saved methods listed by the integrator's server.
export const wrapped = (token: string): ProviderClient => ({ ...createSandboxProvider(token), listPaymentMethods: async () => [] });
export const plain: Promise<CheckoutInstance> = create({ authorization: 'token', container: '#pay', locale: 'de' });
// @ts-expect-error a misspelled message key does not compile
export const typo = <Checkout authorization="token" options={{ translations: { 'error.chekEntries': 'x' } }} />;
`;

const nodeImport = `
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { Checkout } from '@kassa/checkout';
import { PaymentMethodMark } from '@kassa/checkout/marks';
const html = renderToString(createElement(Checkout, { authorization: 'token', options: { locale: 'en' } }));
console.log(JSON.stringify({
  html,
  mark: renderToString(createElement(PaymentMethodMark, { type: 'VenmoAccount' })),
  dropin: import.meta.resolve('@kassa/checkout/dropin'),
  styles: import.meta.resolve('@kassa/checkout/styles.css'),
}));
`;

// A browser app as another team writes it: React, the component and its stylesheet, built by its own bundler.
const browserApp = `
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { Checkout } from '@kassa/checkout';
import '@kassa/checkout/styles.css';
createRoot(document.getElementById('root')).render(createElement(Checkout, { authorization: 'token', options: { locale: 'de' } }));
`;

// An app on the real provider. Not a client token: braintree-web's client refuses it without a request (there is no
// gateway here), which shows that its module was loaded and its documented \`create\` called.
const braintreeApp = `
import { createBraintreeProvider } from '@kassa/checkout/braintree';
createBraintreeProvider('not-a-client-token').getConfiguration(new AbortController().signal).then(
  () => console.log('configured'),
  (error) => console.log(error.message),
);
`;

/** An app's build: the file to run, and the source files of its entry chunk and of the chunks it loads on demand. */
interface AppBuild {
  readonly entry: string;
  readonly entryModules: readonly string[];
  readonly lazyModules: readonly string[];
}

// braintree-web's modules are CommonJS: esbuild splits one imported on demand into a chunk whose namespace has it as
// the default only (modules.ts asDocumented), Vite also puts its members on the namespace.
const bundlers: Readonly<Record<string, (outdir: string) => Promise<AppBuild>>> = {
  esbuild: async (outdir) => {
    const { metafile } = await esbuild({
      entryPoints: ['braintree-app.js'],
      absWorkingDir: scratch,
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'browser',
      outdir,
      metafile: true,
      logLevel: 'silent',
    });
    // Each module imported on demand is an entry point of its own in the metafile: the app's is the one named.
    const outputs = Object.entries(metafile.outputs);
    const entry = outputs.find(([, output]) => output.entryPoint === 'braintree-app.js');
    const modules = ([, output]: (typeof outputs)[number]): string[] => Object.keys(output.inputs);
    return {
      entry: join(scratch, entry?.[0] ?? ''),
      entryModules: entry ? modules(entry) : [],
      lazyModules: outputs.filter((output) => output !== entry).flatMap(modules),
    };
  },
  Vite: async (outdir) => {
    const output = (await build({
      root: scratch,
      configFile: false,
      logLevel: 'silent',
      build: { outDir: outdir, minify: false, rollupOptions: { input: 'braintree-app.js' } },
    })) as Rollup.RollupOutput;
    const chunks = output.output.filter((file): file is Rollup.OutputChunk => file.type === 'chunk');
    const entry = chunks.find((chunk) => chunk.isEntry);
    return {
      entry: join(scratch, outdir, entry?.fileName ?? ''),
      entryModules: entry?.moduleIds ?? [],
      lazyModules: chunks.filter((chunk) => !chunk.isEntry).flatMap((chunk) => chunk.moduleIds),
    };
  },
};

describe('the packed @kassa/checkout in a scratch React app', () => {
  beforeAll(() => {
    const tarball = run('npm', ['pack', '--silent', '--pack-destination', scratch], packageRoot).trim().split('\n').at(-1) ?? '';
    writeFileSync(join(scratch, 'package.json'), JSON.stringify({ name: 'scratch-app', private: true, type: 'module' }));
    // The library's own dependencies come linked from the workspace too: the registry cannot be asked for them here.
    const { dependencies = {} } = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
    };
    // braintree-web is an optional peer dependency: the app installs it to use the real provider.
    const linked = ['react', 'react-dom', '@types/react', 'braintree-web', ...Object.keys(dependencies)].map((name) =>
      join(workspaceModules, name),
    );
    run('npm', ['install', '--offline', '--no-audit', '--no-fund', join(scratch, tarball), ...linked], scratch);
  }, 240_000);

  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('ships dist/ only: ES modules, type declarations and the stylesheet, no sources', () => {
    const installed = join(scratch, 'node_modules', '@kassa', 'checkout');
    expect(readdirSync(installed).sort()).toEqual(['README.md', 'dist', 'package.json']);
    const dist = readdirSync(join(installed, 'dist'));
    expect(dist).toEqual(
      expect.arrayContaining(['index.js', 'dropin.js', 'marks.js', 'sandbox.js', 'braintree.js', 'styles.css', 'types']),
    );
    expect(dist.filter((file) => file.endsWith('.map'))).toEqual([]);
    // React is the app's (a peer dependency), never a copy inside the library, development runtime included.
    expect(readFileSync(join(installed, 'dist', 'index.js'), 'utf8')).not.toMatch(/jsxDEV|react\.development/);
  });

  it('type-checks a consumer against the declarations (strict, library checks on)', () => {
    writeFileSync(join(scratch, 'consumer.tsx'), consumer);
    writeFileSync(
      join(scratch, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          module: 'esnext',
          moduleResolution: 'bundler',
          jsx: 'react-jsx',
          noEmit: true,
          skipLibCheck: false,
          lib: ['ES2022', 'DOM'],
          types: [],
        },
        files: ['consumer.tsx'],
      }),
    );
    expect(() => run(tsc, ['-p', '.'], scratch)).not.toThrow();
  }, 60_000);

  it("bundles into the app's browser build (Vite): the stylesheet comes along, the locales stay chunks loaded on demand", async () => {
    writeFileSync(join(scratch, 'main.js'), browserApp);
    writeFileSync(
      join(scratch, 'index.html'),
      '<!doctype html><div id="root"></div><script type="module" src="/main.js"></script>',
    );
    const output = (await build({
      root: scratch,
      configFile: false,
      logLevel: 'silent',
      build: { write: false },
    })) as Rollup.RollupOutput;
    const files = output.output;
    const css = files.filter((file) => file.type === 'asset' && file.fileName.endsWith('.css'));
    expect(css.map((file) => String((file as Rollup.OutputAsset).source)).join('')).toContain('.kassa-checkout');
    const chunks = files.filter((file): file is Rollup.OutputChunk => file.type === 'chunk');
    const entry = chunks.find((chunk) => chunk.isEntry);
    expect(entry?.code).toContain('data-kassa-checkout');
    // German ("Kartennummer") is a chunk of its own, imported when asked for, not part of the app's entry.
    expect(entry?.code).not.toContain('Kartennummer');
    expect(chunks.some((chunk) => !chunk.isEntry && chunk.code.includes('Kartennummer'))).toBe(true);
  }, 60_000);

  it("imports as an ES module in Node and renders its loading state and a saved method's mark on the server", () => {
    writeFileSync(join(scratch, 'import.mjs'), nodeImport);
    const result = JSON.parse(run(process.execPath, ['import.mjs'], scratch)) as {
      html: string;
      mark: string;
      dropin: string;
      styles: string;
    };
    expect(result.html).toContain('data-kassa-checkout=""');
    expect(result.html).toContain('Loading the payment form');
    // Venmo's mark, as the checkout's saved list draws it: decorative, its monogram.
    expect(result.mark).toMatch(/^<svg class="kassa-option__icon"[^>]*aria-hidden="true".*>V<\/text><\/svg>$/);
    expect(result.dropin).toMatch(/node_modules\/@kassa\/checkout\/dist\/dropin\.js$/);
    expect(result.styles).toMatch(/node_modules\/@kassa\/checkout\/dist\/styles\.css$/);
  }, 30_000);

  it.each(Object.keys(bundlers))(
    "bundles the real provider's entry with braintree-web, the app's, by %s: run in Node, its client module has create",
    async (name) => {
      writeFileSync(join(scratch, 'braintree-app.js'), braintreeApp);
      const app = await bundlers[name]?.(`out-${name}`);
      const clientModule = /node_modules\/braintree-web\/dist\/browser\/client\.js$/;
      // dist/braintree.js leaves braintree-web to the app: the app's bundler takes its modules from the app's install
      // (their browser builds), each in a chunk loaded on first use, none in the app's entry.
      expect(app?.entryModules.some((file) => file.endsWith('@kassa/checkout/dist/braintree.js'))).toBe(true);
      expect(app?.entryModules.filter((file) => file.includes('braintree-web/'))).toEqual([]);
      expect(app?.lazyModules.some((file) => clientModule.test(file))).toBe(true);
      expect(run(process.execPath, [app?.entry ?? ''], scratch).trim()).toBe(
        'braintree-web could not load the configuration: CLIENT_INVALID_AUTHORIZATION Authorization is invalid. Make sure your client token or tokenization key is valid.',
      );
    },
    60_000,
  );
});
