import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/**
 * axe over `page` (and its frames), reporting its violations in full and the other results in short: every rule still
 * runs on every element, but the passes, incomplete and inapplicable results keep one element each (axe's
 * `resultTypes`), so the report axe assembles and hands back to the spec is a fraction of its size. The specs read the
 * violations only; a page of tables passes thousands of checks.
 *
 * A page without frames (the dashboard, the account pages, the shop's pages but the checkout) is checked by one
 * `axe.run` inside it (the builder's "legacy mode"). The default, made for frames of other origins (the gateway's card
 * fields), runs axe in each frame and merges the results in a blank page it opens and loads axe into for each check:
 * on a page of one frame the same rules over the same elements, measured on the dashboard's payments list at about
 * 0.5 s more CPU and 1.5 s more time per check (5 checks: 4.2 to 5.5 s of CPU against 1.9 to 2.0). The frames are
 * counted here, and the specs call `analyze()` at once.
 */
export function axeOn(page: Page): AxeBuilder {
  return new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).setLegacyMode(page.frames().length === 1);
}
