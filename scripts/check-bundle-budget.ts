// The budget: the card view, the JavaScript a shopper downloads before they can type a card, React excluded,
// within CARD_VIEW_BUDGET_BYTES gzip, against issue 10's 15 KB goal (checkout-bundle.ts says what is counted and how).
// The plain-page drop-in (React bundled in) is printed beside it for scale; it is not part of the budget.
import { CARD_VIEW_BUDGET_BYTES, CARD_VIEW_GOAL_BYTES, kb, measureCheckoutBundle } from './checkout-bundle.ts';

const providerDropInBytes = 125 * 1024; // the provider's drop-in, for scale (checkout-behaviour.md)
const failures: string[] = [];
const sizes = await measureCheckoutBundle();

// Only English may travel with the card view: every other catalogue is a chunk of its own.
if (sizes.eagerLocales.length > 0) failures.push(`locales in the card view's chunks: ${sizes.eagerLocales.join(', ')}`);

console.log('Sizes are minified, then gzip -9: what a shopper downloads.');
for (const chunk of sizes.chunks)
  console.log(`  ${chunk.loaded.padEnd(18)} ${chunk.file.padEnd(36)} ${kb(chunk.gzipBytes)} gzip`);
console.log(`checkout library JS (React excluded): ${kb(sizes.checkoutGzipBytes)} gzip`);
console.log(`hosted card field frame JS:           ${kb(sizes.frameScriptGzipBytes)} gzip`);
console.log(`  on demand: the card rules, as each frame is ready to take typing: ${kb(sizes.validateScriptGzipBytes)} gzip`);
console.log(`  on demand: the number frame's tokenization, once the shopper types: ${kb(sizes.tokenizeScriptGzipBytes)} gzip`);
const goal =
  sizes.cardViewGzipBytes <= CARD_VIEW_GOAL_BYTES ? 'met' : `NOT met, ${sizes.cardViewGzipBytes - CARD_VIEW_GOAL_BYTES} B over`;
console.log(
  `card view, what a shopper downloads before they can type a card: ${kb(sizes.cardViewGzipBytes)} gzip, ` +
    `${sizes.cardViewGzipBytes} B (budget ${kb(CARD_VIEW_BUDGET_BYTES)}; issue 10's goal ${kb(CARD_VIEW_GOAL_BYTES)}: ${goal}; ` +
    `provider drop-in ${kb(providerDropInBytes)})`,
);
if (sizes.cardViewGzipBytes > CARD_VIEW_BUDGET_BYTES) {
  failures.push(
    `the card view OVER the ${kb(CARD_VIEW_BUDGET_BYTES)} budget by ${sizes.cardViewGzipBytes - CARD_VIEW_BUDGET_BYTES} B`,
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
