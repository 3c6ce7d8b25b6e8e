// The budget: the JavaScript needed to show the card view, React excluded, within 25 KB gzip. That is the
// checkout library's entry chunk with its static imports (not the views it imports on demand) plus the script of
// the hosted card field frames it loads from the gateway's origin.
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { build, minify, type Rollup } from 'vite';
import { bundleFrameScript } from '@kassa/sandbox';

const budgetBytes = 25 * 1024;
const providerDropInBytes = 125 * 1024; // the provider's drop-in, for scale (checkout-behaviour.md)

const checkoutRoot = join(import.meta.dirname, '..', 'packages', 'checkout');
const output = await build({
  root: checkoutRoot,
  configFile: join(checkoutRoot, 'vite.config.ts'),
  logLevel: 'silent',
  build: { write: false },
});
const outputs = (Array.isArray(output) ? output : [output]) as Rollup.RollupOutput[];
const chunks = outputs
  .flatMap((result) => result.output)
  .filter((item): item is Rollup.OutputChunk => item.type === 'chunk');
const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
// Vite leaves whitespace in an ES library build (the host app's bundler minifies it): measure what a shopper
// downloads, each chunk minified, then gzipped.
const minified = new Map<Rollup.OutputChunk, string>();
for (const chunk of chunks) minified.set(chunk, (await minify(chunk.fileName, chunk.code)).code);
const gzip = (chunk: Rollup.OutputChunk) => gzipSync(minified.get(chunk) ?? chunk.code, { level: 9 }).length;

// What loads with the card view: the library's entry and everything it imports statically. Chunks reached only
// through a dynamic import (the option list, wallet views) load on demand and are reported apart.
const eager = new Set<Rollup.OutputChunk>();
const visit = (chunk: Rollup.OutputChunk | undefined): void => {
  if (chunk === undefined || eager.has(chunk)) return;
  eager.add(chunk);
  for (const file of chunk.imports) visit(byFile.get(file));
};
visit(chunks.find((chunk) => chunk.isEntry && chunk.name === 'index'));
if (eager.size === 0) throw new Error('no index entry chunk in the checkout build');
const checkoutJs = [...eager].reduce((sum, chunk) => sum + gzip(chunk), 0);
const onDemand = chunks.filter((chunk) => !eager.has(chunk) && chunk.code.trim() !== '');
const frameJs = gzipSync(await bundleFrameScript(), { level: 9 }).length;
const total = checkoutJs + frameJs;

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
console.log(`checkout library JS (React excluded): ${kb(checkoutJs)} gzip`);
console.log(`hosted card field frame JS:           ${kb(frameJs)} gzip`);
for (const chunk of onDemand) console.log(`  loaded on demand: ${chunk.fileName.padEnd(28)} ${kb(gzip(chunk))} gzip`);
console.log(`card view total:                      ${kb(total)} gzip (budget ${kb(budgetBytes)}; provider drop-in ${kb(providerDropInBytes)})`);
if (total > budgetBytes) {
  console.error(`Over budget by ${kb(total - budgetBytes)}.`);
  process.exit(1);
}
