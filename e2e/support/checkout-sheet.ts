import { expect, type Page } from '@playwright/test';

/** The drop-in checkout as a shopper and an integrator see it: its views, its message, focus, layout shifts. */
export class CheckoutSheet {
  constructor(readonly page: Page) {}

  root() {
    return this.page.locator('[data-kassa-checkout]');
  }

  /** The sheet-level message (role="alert" in the sheet's header; a wallet view has one of its own). */
  message() {
    return this.root().locator('.kassa-checkout__header').getByRole('alert');
  }

  /** The sheet's status line (role="status", polite, beside the message): the payment under way, a card selected. */
  status() {
    return this.root().locator('.kassa-checkout__header').getByRole('status');
  }

  toggle() {
    return this.root().getByRole('button', { name: 'Choose another way to pay' });
  }

  async seesView(view: string): Promise<void> {
    await expect(this.root()).toHaveAttribute('data-view', view);
  }

  async seesState(state: 'loading' | 'ready' | 'submitting' | 'error'): Promise<void> {
    await expect(this.root()).toHaveAttribute('data-state', state);
  }

  /** No card field shows a message or is drawn focused or wrong: a busy sheet's card, before the Pay's sync judges it. */
  async seesNoFieldJudged(): Promise<void> {
    const fields = this.root().locator('.kassa-field');
    await expect(fields.locator('.kassa-field__error').filter({ hasText: /\S/ })).toHaveCount(0);
    await expect(this.root().locator('.kassa-field:is([data-focused], [data-invalid])')).toHaveCount(0);
  }

  /** Which card field has the keyboard: the frame's name without its prefix, or what else is focused. */
  async focusedField(): Promise<string | null> {
    return this.page.evaluate(() => {
      const active = document.activeElement;
      const name = active?.getAttribute('name') ?? '';
      return name.startsWith('kassa-field-')
        ? name.slice('kassa-field-'.length)
        : (active?.getAttribute('role') ?? active?.tagName ?? null);
    });
  }

  /**
   * Starts recording layout shifts (Layout Instability API) before the page loads; `layoutShift()` returns the sum
   * of the shifts not caused by the shopper's own input within 500 ms (what Cumulative Layout Shift counts).
   */
  static async recordLayoutShifts(page: Page): Promise<void> {
    await page.addInitScript(() => {
      const shifts: Array<{ value: number; hadRecentInput: boolean; sources: string[] }> = [];
      Object.assign(window, { __kassaShifts: shifts });
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as Array<
          PerformanceEntry & { value: number; hadRecentInput: boolean; sources?: Array<{ node?: Node | null }> }
        >) {
          const sources = (entry.sources ?? []).map((source) => {
            const node = source.node;
            return node instanceof Element ? `${node.tagName.toLowerCase()}.${node.className}` : String(node?.nodeName);
          });
          shifts.push({ value: entry.value, hadRecentInput: entry.hadRecentInput, sources });
        }
      }).observe({ type: 'layout-shift', buffered: true });
    });
  }

  /** Forgets the shifts so far (e.g. those of the shop pages before the checkout). */
  async forgetLayoutShifts(): Promise<void> {
    await this.page.evaluate(() => {
      (window as unknown as { __kassaShifts: unknown[] }).__kassaShifts.length = 0;
    });
  }

  async layoutShift(): Promise<{ total: number; sources: string[] }> {
    return this.page.evaluate(() => {
      const shifts = (
        window as unknown as { __kassaShifts: Array<{ value: number; hadRecentInput: boolean; sources: string[] }> }
      ).__kassaShifts;
      const counted = shifts.filter((shift) => !shift.hadRecentInput);
      return { total: counted.reduce((sum, shift) => sum + shift.value, 0), sources: counted.flatMap((shift) => shift.sources) };
    });
  }
}
