// The budget: the card view, the JavaScript a shopper downloads before they can type a card, React excluded,
// within CARD_VIEW_BUDGET_BYTES gzip, against issue 10's 15 KB goal; and its first paint (the form drawn, not yet
// typeable) within FIRST_PAINT_BUDGET_BYTES (checkout-bundle.ts says what is counted and how). The plain-page drop-in
// (React bundled in) is printed beside them for scale; it is not part of the budget.
import {
  CARD_VIEW_BUDGET_BYTES,
  CARD_VIEW_GOAL_BYTES,
  FIRST_PAINT_BUDGET_BYTES,
  kb,
  measureCheckoutBundle,
} from './checkout-bundle.ts';

const providerDropInBytes = 125 * 1024; // the provider's drop-in, for scale (checkout-behaviour.md)
const failures: string[] = [];
const sizes = await measureCheckoutBundle();

// Only English may travel with the card view: every other catalogue is a chunk of its own.
if (sizes.eagerLocales.length > 0) failures.push(`locales in the card view's chunks: ${sizes.eagerLocales.join(', ')}`);

console.log('Sizes are minified, then gzip -9: what a shopper downloads.');
for (const chunk of sizes.chunks)
  console.log(`  ${chunk.loaded.padEnd(11)} ${chunk.file.padEnd(36)} ${kb(chunk.gzipBytes)} gzip`);
console.log(
  `checkout JS (React excluded): ${kb(sizes.checkoutGzipBytes)} gzip before the first paint, ` +
    `${kb(sizes.runtimeGzipBytes)} gzip the runtime's`,
);
console.log(`hosted card field frame JS:   ${kb(sizes.frameScriptGzipBytes)} gzip`);
const goal =
  sizes.cardViewGzipBytes <= CARD_VIEW_GOAL_BYTES ? 'met' : `NOT met, ${sizes.cardViewGzipBytes - CARD_VIEW_GOAL_BYTES} B over`;
console.log(
  `card view, what a shopper downloads before they can type a card: ${kb(sizes.cardViewGzipBytes)} gzip, ` +
    `${sizes.cardViewGzipBytes} B (budget ${kb(CARD_VIEW_BUDGET_BYTES)}; issue 10's goal ${kb(CARD_VIEW_GOAL_BYTES)}: ${goal}; ` +
    `provider drop-in ${kb(providerDropInBytes)})`,
);
console.log(
  `  of which its first paint, the form drawn but not yet typeable (no runtime): ${kb(sizes.firstPaintGzipBytes)} gzip, ` +
    `${sizes.firstPaintGzipBytes} B (budget ${kb(FIRST_PAINT_BUDGET_BYTES)})`,
);
const over = (what: string, bytes: number, budget: number) => {
  if (bytes > budget) failures.push(`${what} OVER the ${kb(budget)} budget by ${bytes - budget} B`);
};
over('the card view', sizes.cardViewGzipBytes, CARD_VIEW_BUDGET_BYTES);
over("the card view's first paint", sizes.firstPaintGzipBytes, FIRST_PAINT_BUDGET_BYTES);
console.log(
  `plain-page drop-in (@kassa/checkout/dropin, React and ReactDOM bundled in, not in the budget) with its runtime and ` +
    `the frame JS: ${kb(sizes.cardViewWithReactGzipBytes)} gzip`,
);

if (failures.length > 0) {
  for (const failure of failures) console.error(failure);
  process.exit(1);
}
