// The budget: the JavaScript needed to show the card view, React excluded, within 25 KB gzip. That is the
// checkout library plus the script of the hosted card field frames it loads from the gateway's origin.
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { build, type Rollup } from 'vite';
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
const checkoutJs = outputs
  .flatMap((result) => result.output)
  .filter((item): item is Rollup.OutputChunk => item.type === 'chunk')
  .reduce((sum, chunk) => sum + gzipSync(chunk.code, { level: 9 }).length, 0);
const frameJs = gzipSync(await bundleFrameScript(), { level: 9 }).length;
const total = checkoutJs + frameJs;

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
console.log(`checkout library JS (React excluded): ${kb(checkoutJs)} gzip`);
console.log(`hosted card field frame JS:           ${kb(frameJs)} gzip`);
console.log(`card view total:                      ${kb(total)} gzip (budget ${kb(budgetBytes)}; provider drop-in ${kb(providerDropInBytes)})`);
if (total > budgetBytes) {
  console.error(`Over budget by ${kb(total - budgetBytes)}.`);
  process.exit(1);
}
