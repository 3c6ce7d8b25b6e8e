import { expect, type Page } from '@playwright/test';
import { signInAsAdmin } from './admin-api.ts';
import { axeOn } from './axe.ts';

export type DashboardSection = 'Overview' | 'Payments' | 'Subscriptions' | 'Disputes' | 'Customers' | 'Refusals' | 'Activity';

const SECTION_PATHS: Record<DashboardSection, string> = {
  Overview: '/admin',
  Payments: '/admin/payments',
  Subscriptions: '/admin/subscriptions',
  Disputes: '/admin/disputes',
  Customers: '/admin/customers',
  Refusals: '/admin/refusals',
  Activity: '/admin/activity',
};

/** The merchant at the dashboard (/admin), as a page object: a spec reads like `merchant.refundsPart('5.00')`. */
export class Merchant {
  constructor(readonly page: Page) {}

  /** Signs in on the sign-in page, which takes an administrator to the dashboard's overview. */
  async signsInOnThePage(): Promise<void> {
    await this.page.goto('/sign-in');
    await this.page.getByLabel('Email').fill('admin@kassa.test');
    await this.page.getByLabel('Password').fill('kassa-demo-admin');
    await this.page.getByRole('button', { name: 'Sign in' }).click();
    await expect(this.page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
  }

  /**
   * Signed in through the API the sign-in page uses, then the dashboard's `section` (the overview unless said): for the
   * tests whose subject comes after signing in (about 0.35 s less of Chromium's CPU and 0.65 s less time a sign-in than
   * on the page, whose proof of work runs in the browser's workers). A test about another section opens it at once, not
   * through the overview, whose charts it would only draw and throw away.
   */
  async signsIn(section: DashboardSection = 'Overview'): Promise<void> {
    await signInAsAdmin(this.page.request);
    await this.page.goto(SECTION_PATHS[section]);
    await expect(this.page.getByRole('heading', { name: section, level: 1 })).toBeVisible();
  }

  dashboardNav() {
    return this.page.getByRole('navigation', { name: 'Dashboard' });
  }

  async opensSection(name: DashboardSection): Promise<void> {
    await this.dashboardNav().getByRole('link', { name }).click();
    await expect(this.page.getByRole('heading', { name, level: 1 })).toBeVisible();
  }

  /** Fills the payments list's filters and applies them. */
  async filtersPayments(filters: {
    customerEmail?: string;
    orderNumber?: string;
    cardLastFour?: string;
    status?: string;
    method?: string;
  }): Promise<void> {
    const form = this.page.getByRole('form', { name: 'Filters' });
    if (filters.customerEmail !== undefined) await form.getByLabel('Customer email').fill(filters.customerEmail);
    if (filters.orderNumber !== undefined) await form.getByLabel('Order number').fill(filters.orderNumber);
    if (filters.cardLastFour !== undefined) await form.getByLabel('Card last 4').fill(filters.cardLastFour);
    if (filters.status !== undefined) await form.getByLabel('Status').selectOption({ label: filters.status });
    if (filters.method !== undefined) await form.getByLabel('Payment method').selectOption({ label: filters.method });
    await form.getByRole('button', { name: 'Apply filters' }).click();
  }

  paymentRows() {
    return this.page.getByRole('region', { name: 'Payments, in the order chosen' }).locator('tbody tr');
  }

  /** Opens the payment of the list's only row. */
  async opensOnlyPayment(): Promise<void> {
    await expect(this.paymentRows()).toHaveCount(1);
    await this.paymentRows().getByRole('link').click();
    await expect(this.page.getByRole('heading', { name: 'Timeline' })).toBeVisible();
  }

  paymentHeading() {
    return this.page.getByRole('heading', { level: 1 });
  }

  fact(term: string) {
    return this.page
      .locator('.facts div')
      .filter({ has: this.page.getByRole('term').filter({ hasText: term }) })
      .getByRole('definition');
  }

  timeline() {
    return this.page.getByRole('region', { name: 'Timeline' }).getByRole('listitem');
  }

  dialog() {
    return this.page.getByRole('dialog');
  }

  /**
   * The open payment once the gateway's settlement webhook has been applied (the sandbox settles by itself): waited for
   * through the API the page reads, then the page loaded again once (a reload for each try cost a page load every
   * second on a loaded machine).
   */
  async waitsForSettlement(): Promise<void> {
    const paymentId = new URL(this.page.url()).pathname.split('/').at(-1) ?? '';
    await expect
      .poll(
        async () => {
          const answer = await this.page.request.get(`/api/admin/payments/${encodeURIComponent(paymentId)}`);
          return ((await answer.json()) as { payment: { settlementStatus: string | null } }).payment.settlementStatus;
        },
        { timeout: 45_000 },
      )
      .toBe('settled');
    await this.page.reload();
    await expect(this.fact('Settlement')).toHaveText('Settled');
  }

  async refundsPart(amount: string): Promise<void> {
    await this.page.getByRole('button', { name: 'Refund', exact: true }).click();
    const dialog = this.dialog();
    await expect(dialog).toBeVisible();
    await dialog.getByRole('radio', { name: 'Partial refund' }).check();
    await dialog.getByLabel(/Amount to refund/).fill(amount);
    await dialog.getByRole('button', { name: new RegExp(`^Refund €${amount.replace('.', '\\.')}$`) }).click();
    await expect(dialog).toBeHidden();
  }

  async voids(): Promise<void> {
    await this.page.getByRole('button', { name: 'Void', exact: true }).click();
    await expect(this.dialog()).toBeVisible();
    await this.dialog().getByRole('button', { name: 'Void payment' }).click();
    await expect(this.dialog()).toBeHidden();
  }

  /** axe's violations on the page as it is now, named by `state`. */
  async axeViolations(state: string): Promise<string[]> {
    return (await axeOn(this.page).analyze()).violations.map(
      (violation) =>
        `${state}: ${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`,
    );
  }
}
