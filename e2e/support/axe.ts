import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/**
 * axe over `page` (and its frames), reporting its violations in full and the other results in short: every rule still
 * runs on every element, but the passes, incomplete and inapplicable results keep one element each (axe's
 * `resultTypes`), so the report axe assembles and hands back to the spec is a fraction of its size. The specs read the
 * violations only; a page of tables passes thousands of checks.
 */
export function axeOn(page: Page): AxeBuilder {
  return new AxeBuilder({ page }).options({ resultTypes: ['violations'] });
}
