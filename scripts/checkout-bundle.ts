// What the checkout costs a shopper to download (issue 10): its chunks, minified as they reach a browser, then
// gzip -9. The card view, what issue 10's 15 KB goal is about, is what a shopper downloads before they can type a card:
// the library's entry chunk with its static imports (<Checkout>, the runtime that makes the card frames, the views of
// the card form; not the views, parts and locales it imports on demand) plus the script of the hosted card field frames
// it loads from the gateway's origin (not the card rules with what a field does with what is typed, which each frame
// imports as it announces itself ready, nor
// the number frame's tokenization, which it imports once the shopper types);
// React is the host app's and not in it. The budget script
// (check-bundle-budget.ts) holds it to a budget; the bench prints it.
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { build, type Rollup } from 'vite';
import { bundleHostedFieldScripts } from '@kassa/sandbox';

/** The hard budget CI holds the card view to (React excluded), lowered as the card view shrinks so it cannot grow back. */
export const CARD_VIEW_BUDGET_BYTES = 15_339;
/** Issue 10's goal for the card view without React: what a shopper downloads before they can type a card. */
export const CARD_VIEW_GOAL_BYTES = 15 * 1024;

export interface ChunkSize {
  readonly file: string;
  readonly gzipBytes: number;
  /** Loaded with the entry (a static import), or only when asked for. */
  readonly loaded: 'with the card view' | 'on demand';
}

export interface CheckoutBundleSizes {
  /** Every chunk of the library's build (React external), the card view's first. */
  readonly chunks: readonly ChunkSize[];
  /** The card view's chunks together, React excluded. */
  readonly checkoutGzipBytes: number;
  /** The hosted card field frame's script (served by the gateway's origin). */
  readonly frameScriptGzipBytes: number;
  /** The card rules with the field's steps, which each frame imports as it announces itself ready (a card can be typed): not in the card view. */
  readonly validateScriptGzipBytes: number;
  /** The number frame's tokenization, which it imports once the shopper types in it: not in the card view. */
  readonly tokenizeScriptGzipBytes: number;
  /** checkoutGzipBytes + frameScriptGzipBytes: what the budget and the goal are about. */
  readonly cardViewGzipBytes: number;
  /** The plain-page drop-in's entry (React and ReactDOM bundled in) with the frame script: the card view with React. */
  readonly cardViewWithReactGzipBytes: number;
  /** Locale catalogues found in the card view's chunks (only English may travel with it). */
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

/** The entry and everything it imports statically: what loads before anything is asked for on demand. */
function eagerChunks(chunks: readonly Rollup.OutputChunk[], entry: string): Set<Rollup.OutputChunk> {
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const eager = new Set<Rollup.OutputChunk>();
  const visit = (chunk: Rollup.OutputChunk | undefined): void => {
    if (chunk === undefined || eager.has(chunk)) return;
    eager.add(chunk);
    for (const file of chunk.imports) visit(byFile.get(file));
  };
  visit(chunks.find((chunk) => chunk.isEntry && chunk.name === entry));
  if (eager.size === 0) throw new Error(`no ${entry} entry chunk in the checkout build`);
  return eager;
}

const total = (chunks: Iterable<Rollup.OutputChunk>) => [...chunks].reduce((sum, chunk) => sum + gzip(chunk.code), 0);

/** Builds the library and the plain-page drop-in (about 7 s) and measures them. */
export async function measureCheckoutBundle(): Promise<CheckoutBundleSizes> {
  const library = await buildMinified('production');
  const eager = eagerChunks(library, 'index');
  const frameScripts = await bundleHostedFieldScripts();
  const frameScriptGzipBytes = gzip(frameScripts.frame);
  const checkoutGzipBytes = total(eager);
  const dropin = await buildMinified('dropin');
  const chunks = library
    .filter((chunk) => chunk.code.trim() !== '')
    .map(
      (chunk): ChunkSize => ({
        file: chunk.fileName,
        gzipBytes: gzip(chunk.code),
        loaded: eager.has(chunk) ? 'with the card view' : 'on demand',
      }),
    )
    .sort((a, b) => (a.loaded === b.loaded ? a.file.localeCompare(b.file) : a.loaded === 'with the card view' ? -1 : 1));
  return {
    chunks,
    checkoutGzipBytes,
    frameScriptGzipBytes,
    validateScriptGzipBytes: gzip(frameScripts.validate),
    tokenizeScriptGzipBytes: gzip(frameScripts.tokenize),
    cardViewGzipBytes: checkoutGzipBytes + frameScriptGzipBytes,
    cardViewWithReactGzipBytes: total(eagerChunks(dropin, 'dropin')) + frameScriptGzipBytes,
    eagerLocales: [...eager].flatMap((chunk) => chunk.moduleIds.filter((id) => /\/i18n\/locales\//.test(id))),
  };
}

export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
