// What the checkout costs a shopper to download (issue 10): its chunks, minified as they reach a browser, then
// gzip -9. The card view, what issue 10's 15 KB goal is about, is what a shopper downloads before they can type a card:
// the library's entry chunk, the chunk holding <Checkout> with its static imports, the runtime's chunk (the machine, the
// provider client, the frames' protocol: <Checkout> imports it as soon as it runs, and the runtime makes the card
// frames) and the script of the hosted card field frames, loaded from the gateway's origin (React is the host app's and
// not in it). Its first paint, the same without the runtime's chunk, draws the card form under its loading overlay,
// not yet typeable: measured apart, not the goal. The entry chunk also imports the runtime's chunk statically, for the
// machine the public surface exports; an app that imports <Checkout> only drops that import (`sideEffects` in the
// package.json). The budget script (check-bundle-budget.ts) holds both to a budget; the bench prints them.
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { build, type Rollup } from 'vite';
import { bundleFrameScript } from '@kassa/sandbox';

/** The budget CI holds the card view to (React excluded), lowered as it shrinks so it cannot grow back. */
export const CARD_VIEW_BUDGET_BYTES = 24_220;
/** The budget of the card view's first paint (the card view less the runtime's chunk), lowered alike. */
export const FIRST_PAINT_BUDGET_BYTES = 12_920;
/** Issue 10's goal for the card view without React: what a shopper downloads before they can type a card. */
export const CARD_VIEW_GOAL_BYTES = 15 * 1024;

export interface ChunkSize {
  readonly file: string;
  readonly gzipBytes: number;
  /** Before the card form's first paint, right after it (the runtime), or only when asked for. */
  readonly loaded: 'first paint' | 'runtime' | 'on demand';
}

export interface CheckoutBundleSizes {
  /** Every chunk of the library's build (React external), the first paint's first. */
  readonly chunks: readonly ChunkSize[];
  /** The chunks of the card form's first paint together, React excluded. */
  readonly checkoutGzipBytes: number;
  /** The runtime's chunks, imported as <Checkout> runs (not in the first paint's). */
  readonly runtimeGzipBytes: number;
  /** The hosted card field frame's script (served by the gateway's origin). */
  readonly frameScriptGzipBytes: number;
  /** checkoutGzipBytes + frameScriptGzipBytes: the card view's first paint, the form drawn but not yet typeable. */
  readonly firstPaintGzipBytes: number;
  /**
   * firstPaintGzipBytes + runtimeGzipBytes: the card view, what a shopper downloads before they can type a card (a
   * card-only checkout's every byte): what issue 10's goal and CI's budget are about.
   */
  readonly cardViewGzipBytes: number;
  /** The plain-page drop-in's entry and runtime (React and ReactDOM bundled in) with the frame script. */
  readonly cardViewWithReactGzipBytes: number;
  /** Locale catalogues found in the card view's first paint and runtime (only English may travel with them). */
  readonly eagerLocales: readonly string[];
}

const checkoutRoot = join(import.meta.dirname, '..', 'packages', 'checkout');

/** Builds one of the checkout's entries in memory, minified as it reaches a browser. */
async function buildMinified(mode: 'production' | 'dropin'): Promise<Rollup.OutputChunk[]> {
  const output = await build({
    root: checkoutRoot,
    configFile: join(checkoutRoot, 'vite.config.ts'),
    mode,
    logLevel: 'silent',
    build: { write: false, rolldownOptions: { output: { minify: true } } },
  });
  const outputs = (Array.isArray(output) ? output : [output]) as Rollup.RollupOutput[];
  return outputs.flatMap((result) => result.output).filter((item): item is Rollup.OutputChunk => item.type === 'chunk');
}

const gzip = (code: string) => gzipSync(code, { level: 9 }).length;

/** A chunk and everything it imports statically. */
function withStaticImports(chunks: readonly Rollup.OutputChunk[], first: Rollup.OutputChunk): Set<Rollup.OutputChunk> {
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const found = new Set<Rollup.OutputChunk>();
  const visit = (chunk: Rollup.OutputChunk | undefined): void => {
    if (chunk === undefined || found.has(chunk)) return;
    found.add(chunk);
    for (const file of chunk.imports) visit(byFile.get(file));
  };
  visit(first);
  return found;
}

/** The chunk that holds a module of the checkout's sources. */
function chunkOf(chunks: readonly Rollup.OutputChunk[], source: string): Rollup.OutputChunk {
  const chunk = chunks.find((candidate) => candidate.moduleIds.some((id) => id.endsWith(`/src/${source}`)));
  if (chunk === undefined) throw new Error(`no chunk holds src/${source} in the checkout build`);
  return chunk;
}

/**
 * The card view's chunks in a build: the first paint (the entry chunk itself, and the chunk of the component that
 * draws the form with its static imports) and the runtime's chunks that are not in it.
 */
function cardViewChunks(chunks: readonly Rollup.OutputChunk[], entry: string, component: string) {
  const entryChunk = chunks.find((chunk) => chunk.isEntry && chunk.name === entry);
  if (entryChunk === undefined) throw new Error(`no ${entry} entry chunk in the checkout build`);
  const firstPaint = new Set([entryChunk, ...withStaticImports(chunks, chunkOf(chunks, component))]);
  const runtime = [...withStaticImports(chunks, chunkOf(chunks, 'runtime/checkout-runtime.ts'))].filter(
    (chunk) => !firstPaint.has(chunk),
  );
  return { firstPaint, runtime: new Set(runtime) };
}

const total = (chunks: Iterable<Rollup.OutputChunk>) => [...chunks].reduce((sum, chunk) => sum + gzip(chunk.code), 0);

/** Builds the library and the plain-page drop-in (about 7 s) and measures them. */
export async function measureCheckoutBundle(): Promise<CheckoutBundleSizes> {
  const library = await buildMinified('production');
  const { firstPaint, runtime } = cardViewChunks(library, 'index', 'checkout.tsx');
  const frameScriptGzipBytes = gzip(await bundleFrameScript());
  const checkoutGzipBytes = total(firstPaint);
  const runtimeGzipBytes = total(runtime);
  const dropin = cardViewChunks(await buildMinified('dropin'), 'dropin', 'checkout.tsx');
  const loaded = (chunk: Rollup.OutputChunk): ChunkSize['loaded'] =>
    firstPaint.has(chunk) ? 'first paint' : runtime.has(chunk) ? 'runtime' : 'on demand';
  const order: readonly ChunkSize['loaded'][] = ['first paint', 'runtime', 'on demand'];
  const chunks = library
    .filter((chunk) => chunk.code.trim() !== '')
    .map((chunk): ChunkSize => ({ file: chunk.fileName, gzipBytes: gzip(chunk.code), loaded: loaded(chunk) }))
    .sort((a, b) => order.indexOf(a.loaded) - order.indexOf(b.loaded) || a.file.localeCompare(b.file));
  return {
    chunks,
    checkoutGzipBytes,
    runtimeGzipBytes,
    frameScriptGzipBytes,
    firstPaintGzipBytes: checkoutGzipBytes + frameScriptGzipBytes,
    cardViewGzipBytes: checkoutGzipBytes + runtimeGzipBytes + frameScriptGzipBytes,
    cardViewWithReactGzipBytes: total(dropin.firstPaint) + total(dropin.runtime) + frameScriptGzipBytes,
    eagerLocales: [...firstPaint, ...runtime].flatMap((chunk) => chunk.moduleIds.filter((id) => /\/i18n\/locales\//.test(id))),
  };
}

export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
