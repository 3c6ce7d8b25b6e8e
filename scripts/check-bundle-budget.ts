// The budget: the JavaScript needed to show the card view, React excluded, within CARD_VIEW_BUDGET_BYTES gzip
// (the goal is 15 KB; checkout-bundle.ts says what is counted and how). The plain-page drop-in (React bundled in) is
// printed beside it for scale; it is not part of the budget.
import { CARD_VIEW_BUDGET_BYTES, CARD_VIEW_GOAL_BYTES, kb, measureCheckoutBundle } from './checkout-bundle.ts';

const providerDropInBytes = 125 * 1024; // the provider's drop-in, for scale (checkout-behaviour.md)
const failures: string[] = [];
const sizes = await measureCheckoutBundle();

// Only English may travel with the card view: every other catalogue is a chunk of its own.
if (sizes.eagerLocales.length > 0) failures.push(`locales in the card view's entry chunk: ${sizes.eagerLocales.join(', ')}`);

console.log('Sizes are minified, then gzip -9: what a shopper downloads.');
console.log(`checkout library JS (React excluded): ${kb(sizes.checkoutGzipBytes)} gzip`);
console.log(`hosted card field frame JS:           ${kb(sizes.frameScriptGzipBytes)} gzip`);
for (const chunk of sizes.chunks.filter((c) => c.loaded === 'on demand')) {
  console.log(`  loaded on demand: ${chunk.file.padEnd(28)} ${kb(chunk.gzipBytes)} gzip`);
}
console.log(
  `card view total:                      ${kb(sizes.cardViewGzipBytes)} gzip, ${sizes.cardViewGzipBytes} B ` +
    `(hard budget ${kb(CARD_VIEW_BUDGET_BYTES)}, goal ${kb(CARD_VIEW_GOAL_BYTES)}; provider drop-in ${kb(providerDropInBytes)})`,
);
if (sizes.cardViewGzipBytes > CARD_VIEW_BUDGET_BYTES) {
  failures.push(
    `card view OVER the ${kb(CARD_VIEW_BUDGET_BYTES)} budget by ${kb(sizes.cardViewGzipBytes - CARD_VIEW_BUDGET_BYTES)}`,
  );
}
console.log(
  `plain-page drop-in (@kassa/checkout/dropin, React and ReactDOM bundled in, not in the budget) with the frame JS: ` +
    `${kb(sizes.cardViewWithReactGzipBytes)} gzip`,
);

if (failures.length > 0) {
  for (const failure of failures) console.error(failure);
  process.exit(1);
}
