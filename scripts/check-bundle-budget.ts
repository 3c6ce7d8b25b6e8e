// The budget: the JavaScript needed to show the card view, React excluded, within 25 KB gzip (the goal is
// 15 KB). That is the checkout library's entry chunk with its static imports (not the views and locales it imports
// on demand) plus the script of the hosted card field frames it loads from the gateway's origin. Measured as a
// shopper downloads it: minified (the library is published readable, the host app's bundler minifies it), then gzip.
// The plain-page drop-in (React bundled in) is printed beside it for scale; it is not part of the budget.
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { build, type Rollup } from 'vite';
import { bundleFrameScript } from '@kassa/sandbox';

const budgetBytes = 25 * 1024;
const goalBytes = 15 * 1024;
const providerDropInBytes = 125 * 1024; // the provider's drop-in, for scale (checkout-behaviour.md)

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

const gzip = (chunk: Rollup.OutputChunk) => gzipSync(chunk.code, { level: 9 }).length;

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

const total = (chunks: Iterable<Rollup.OutputChunk>) => [...chunks].reduce((sum, chunk) => sum + gzip(chunk), 0);
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const failures: string[] = [];

const library = await buildMinified('production');
const eager = eagerChunks(library, 'index');
const checkoutJs = total(eager);
const frameJs = gzipSync(await bundleFrameScript(), { level: 9 }).length;
const cardView = checkoutJs + frameJs;

// Only English may travel with the card view: every other catalogue is a chunk of its own.
const eagerLocales = [...eager].flatMap((chunk) => chunk.moduleIds.filter((id) => /\/i18n\/locales\//.test(id)));
if (eagerLocales.length > 0) failures.push(`locales in the card view's entry chunk: ${eagerLocales.join(', ')}`);

console.log('Sizes are minified, then gzip -9: what a shopper downloads.');
console.log(`checkout library JS (React excluded): ${kb(checkoutJs)} gzip`);
console.log(`hosted card field frame JS:           ${kb(frameJs)} gzip`);
for (const chunk of library.filter((c) => !eager.has(c) && c.code.trim() !== '')) {
  console.log(`  loaded on demand: ${chunk.fileName.padEnd(28)} ${kb(gzip(chunk))} gzip`);
}
console.log(
  `card view total:                      ${kb(cardView)} gzip (hard budget ${kb(budgetBytes)}, goal ${kb(goalBytes)}; ` +
    `provider drop-in ${kb(providerDropInBytes)})`,
);
if (cardView > budgetBytes) failures.push(`card view OVER the ${kb(budgetBytes)} budget by ${kb(cardView - budgetBytes)}`);

const dropin = await buildMinified('dropin');
console.log(
  `plain-page drop-in (@kassa/checkout/dropin, React and ReactDOM bundled in, not in the budget): ` +
    `${kb(total(eagerChunks(dropin, 'dropin')))} gzip`,
);

if (failures.length > 0) {
  for (const failure of failures) console.error(failure);
  process.exit(1);
}
