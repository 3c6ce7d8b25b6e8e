import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { botcheckToken } from './botcheck-token.ts';
import { productIds } from './catalogue.ts';
import { signUpLink } from './outbox.ts';

export interface TestCard {
  number: string;
  expiry: string;
  cvv: string;
  postalCode: string;
  name?: string;
}

const nextYear = (new Date().getFullYear() + 3) % 100;
export const cards = {
  visa: { number: '4111111111111111', expiry: `12/${nextYear}`, cvv: '123', postalCode: '12345', name: 'Ada Lovelace' },
  mastercard: { number: '5555555555554444', expiry: `11/${nextYear}`, cvv: '321', postalCode: '10115', name: 'Grace Hopper' },
  amex: { number: '378282246310005', expiry: `10/${nextYear}`, cvv: '1234', postalCode: '94107', name: 'Alan Turing' },
} satisfies Record<string, TestCard>;

/** The demo shopper's saved card (the server seeds it at start with the gateway's fake Visa nonce), locked by a subscription. */
export const DEMO_SAVED_CARD = 'Visa ending in 1881';

/** The gateway's test nonce for a Visa ending in 1881 (gateway.md): saves a card without typing one. */
export const TEST_VISA_NONCE = 'fake-valid-visa-nonce';

/** An email no other spec (or run against the same database) uses. */
export function uniqueEmail(name: string): string {
  return `${name}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@kassa.test`;
}

/**
 * Signs `api` (a page's request context, whose cookies are the page's, or one of its own) in through the API the
 * sign-in page uses, its bot-check token solved in Node: for specs whose subject comes after signing in (about 0.35 s
 * less of Chromium's CPU a sign-in than on the page, whose proof of work runs in the browser's workers).
 */
export async function signInThroughApi(api: APIRequestContext, email: string, password: string): Promise<void> {
  const signedIn = await api.post('/api/session', {
    data: { email, password, botcheck: await botcheckToken(api, 'sign_in') },
  });
  expect(signedIn.status()).toBe(200);
}

export type AccountPage = 'Orders' | 'Payment methods' | 'Subscriptions';

type CardField = 'number' | 'expirationDate' | 'cvv' | 'cardholderName' | 'postalCode';

/** A shopper clicking through the shop, so specs read as what a person does. */
export class Shopper {
  constructor(readonly page: Page) {}

  async visitShop(): Promise<void> {
    await this.page.goto('/');
    await expect(this.page.getByRole('heading', { name: 'Good coffee, made at home', level: 1 })).toBeVisible();
  }

  async addToCart(productName: string): Promise<void> {
    await this.page.getByRole('button', { name: `Add to cart: ${productName}` }).click();
    await expect(this.page.getByRole('status')).toHaveText(`${productName} added to your cart.`);
  }

  /** Buys the given products: shop, cart, checkout page with the drop-in loaded. */
  async startCheckout(...productNames: string[]): Promise<void> {
    await this.openCheckout(...productNames);
    await expect(this.page.locator('[data-kassa-checkout]')).toHaveAttribute('data-state', 'ready');
  }

  /**
   * The checkout page of a new order of one mug (or of `productId`: `productIds` in support/catalogue.ts), made through
   * the API the shop uses (the cookie is the page's): for specs whose subject starts at the checkout, so the shop and
   * the cart are not clicked through again.
   */
  async startCheckoutOfNewOrder(productId?: string): Promise<void> {
    await this.openCheckoutOfNewOrder(productId);
    await expect(this.page.locator('[data-kassa-checkout]')).toHaveAttribute('data-state', 'ready');
  }

  /** The same page, without waiting for the drop-in; no cart page on the way (whose warm frame loads the card fields' page). */
  async openCheckoutOfNewOrder(productId?: string): Promise<void> {
    const order = await this.ordersThroughApi(productId);
    await this.page.goto(`/checkout/${order.id}`);
  }

  /** A new order of one mug (or of `productId`), unpaid, made through the API the shop's cart uses (the cookie is the page's). */
  async ordersThroughApi(productId: string = productIds.everyday): Promise<{ id: string; number: number }> {
    const response = await this.page.request.post('/api/orders', { data: { items: [{ productId, quantity: 1 }] } });
    expect(response.status()).toBe(201);
    const { order } = (await response.json()) as { order: { id: string; number: number } };
    return order;
  }

  /** Shop, cart, checkout page, without waiting for the drop-in (it may be failing to load). */
  async openCheckout(...productNames: string[]): Promise<void> {
    await this.visitShop();
    for (const name of productNames) await this.addToCart(name);
    await this.page.getByRole('link', { name: /^Cart/ }).click();
    await this.page.getByRole('button', { name: 'Go to checkout' }).click();
    await expect(this.page.getByRole('heading', { name: 'Checkout', level: 1 })).toBeVisible();
  }

  field(field: CardField) {
    return this.page.frameLocator(`iframe[name="kassa-field-${field}"]`).locator('input');
  }

  /** Types `value` into a card field key by key, as a person at the keyboard. */
  async typeInto(field: CardField, value: string): Promise<void> {
    const input = this.field(field);
    await input.click();
    await input.pressSequentially(value);
  }

  /**
   * Enters the card as the browser's autofill or a paste does: each field's value at once (one input event). Typing
   * key by key (`typeCard`, `typeInto`) is the subject of card-validation.spec.ts, checkout-frame.spec.ts, the proof of
   * work's spec and the integrator's card events (option-list.spec.ts); in the other specs it only cost CPU, about 1 s
   * of Chromium's and Playwright's per card (29 keys).
   */
  async enterCard(card: TestCard): Promise<void> {
    await this.eachField(card, (field, value) => this.field(field).fill(value));
  }

  /** Types the card key by key into each field, as a person at the keyboard. */
  async typeCard(card: TestCard): Promise<void> {
    await this.eachField(card, (field, value) => this.typeInto(field, value));
  }

  private async eachField(card: TestCard, enter: (field: CardField, value: string) => Promise<void>): Promise<void> {
    if (card.name !== undefined && (await this.page.locator('iframe[name="kassa-field-cardholderName"]').count())) {
      await enter('cardholderName', card.name);
    }
    await enter('number', card.number);
    await enter('expirationDate', card.expiry);
    await enter('cvv', card.cvv);
    await enter('postalCode', card.postalCode);
  }

  /** Enters the card and presses Pay: what a shopper does on the checkout page. */
  async payWithCard(card: TestCard): Promise<void> {
    await this.enterCard(card);
    await this.pay();
  }

  /** The checkout's own way to sign in, which brings the shopper back to the order. */
  /** Signs in from the checkout's link, saying yes to bringing the order being paid into the account. */
  async signInFromCheckout(email: string, password: string): Promise<void> {
    await this.page.getByRole('region', { name: 'Payment' }).getByRole('link', { name: 'Sign in' }).click();
    await this.page.getByRole('checkbox', { name: /Add these orders to my account/ }).check();
    await this.fillSignIn(email, password);
  }

  /** The "Order 1001" line of the receipt, as a number. */
  async receiptOrderNumber(): Promise<number> {
    const text = await this.page.getByText(/^Order \d+$/).textContent();
    return Number(/\d+/.exec(text ?? '')?.[0]);
  }

  sandboxBanner() {
    return this.page.getByRole('complementary', { name: 'Test mode' });
  }

  themeToggle() {
    return this.page.getByRole('button', { name: 'Dark theme' });
  }

  async signIn(email: string, password: string): Promise<void> {
    await this.page.goto('/sign-in');
    await this.fillSignIn(email, password);
  }

  /** Signed in through the API (`signInThroughApi`), the session the page's: the sign-in page is not opened. */
  async signInThroughApi(email: string, password: string): Promise<void> {
    await signInThroughApi(this.page.request, email, password);
  }

  private async fillSignIn(email: string, password: string): Promise<void> {
    await this.page.getByLabel('Email').fill(email);
    await this.page.getByLabel('Password').fill(password);
    await this.page.getByRole('button', { name: 'Sign in' }).click();
    await this.seesSignedIn(/^Signed in as /);
  }

  /**
   * Signed in: Sign out is offered, in the header's row or, on a narrow phone, behind its account menu (the "Signed in
   * as" line is in the header, hidden on a phone's narrow header).
   */
  private async seesSignedIn(line: string | RegExp): Promise<void> {
    await expect(this.page.getByRole('button', { name: 'Sign out', includeHidden: true })).toBeAttached();
    await expect(this.page.getByText(line)).toBeAttached();
  }

  /**
   * A new account made through the API the sign-up pages use (the session cookie is the page's): not clicked
   * through. The sign-up mail's link is read in the dev outbox and followed as its page does.
   */
  async signUpThroughApi(name: string, email: string, password: string): Promise<void> {
    const asked = await this.page.request.post('/api/accounts', {
      data: { name, email, password, botcheck: await botcheckToken(this.page.request, 'sign_up') },
    });
    expect(asked.status()).toBe(202);
    const token = new URL(await signUpLink(this.page.request, email)).searchParams.get('token');
    const confirmed = await this.page.request.post('/api/accounts/confirmation', { data: { token } });
    expect(confirmed.status()).toBe(201);
  }

  /** Fills in the sign-up page and presses its button: the page then says to check the mailbox. */
  async asksToSignUp(name: string, email: string, password: string): Promise<void> {
    await this.page.goto('/sign-up');
    await this.page.getByLabel('Name').fill(name);
    await this.page.getByLabel('Email').fill(email);
    await this.page.getByLabel('Password').fill(password);
    await this.page.getByRole('button', { name: 'Create an account' }).click();
    await expect(this.page.getByRole('heading', { name: 'Check your email' })).toBeVisible();
  }

  /** Signs up as a person does: the sign-up page, then the mailed link (read in the dev outbox) and its button. */
  async signUp(name: string, email: string, password: string): Promise<void> {
    await this.asksToSignUp(name, email, password);
    await this.page.goto(await signUpLink(this.page.request, email));
    await this.page.getByRole('button', { name: 'Create my account' }).click();
    await this.seesSignedIn(`Signed in as ${name}`);
  }

  /**
   * Saves a card for the signed-in shopper through the server's API, as the account page does with the nonce the
   * checkout gives: for specs whose subject is what comes after saving.
   */
  async savesCardThroughApi(nonce: string): Promise<void> {
    const response = await this.page.request.post('/api/payment-methods', {
      data: { nonce, botcheck: await botcheckToken(this.page.request, 'save_card') },
      headers: { 'idempotency-key': `e2e-${crypto.randomUUID()}` },
    });
    expect(response.status(), await response.text()).toBe(201);
  }

  /**
   * Saves a typed card without typing it into the page: the card goes to the gateway's client API as the card frame
   * sends it (on the token the account page's "Add a card" gets), then its nonce to the server. For specs whose subject
   * is a card already saved by number (a duplicate), so each spec types one card at most.
   */
  async savesCardAtGateway(card: TestCard): Promise<void> {
    const issued = await this.page.request.post('/api/payment-methods/client-token', { data: {} });
    expect(issued.status()).toBe(200);
    const { clientToken } = (await issued.json()) as { clientToken: string };
    await this.savesCardThroughApi(await this.tokenizesAtGateway(clientToken, card));
  }

  /**
   * Pays a new order of one mug with a typed card without typing it into the page: the order, its checkout session,
   * the card at the gateway's client API as the card frame sends it, then the payment, through the API the checkout
   * page uses. For specs whose subject is what comes after a card payment (the merchant's side). The order's id and number.
   */
  async paysThroughApi(card: TestCard): Promise<{ id: string; number: number }> {
    const order = await this.ordersThroughApi();
    const session = await this.page.request.post(`/api/orders/${order.id}/checkout-session`, { data: {} });
    expect(session.status()).toBe(200);
    const { clientToken } = (await session.json()) as { clientToken: string };
    const paid = await this.page.request.post(`/api/orders/${order.id}/payments`, {
      data: {
        nonce: await this.tokenizesAtGateway(clientToken, card),
        botcheck: await botcheckToken(this.page.request, 'payment'),
      },
      headers: { 'idempotency-key': `e2e-${crypto.randomUUID()}` },
    });
    expect(paid.status(), await paid.text()).toBe(201);
    return order;
  }

  /** The card tokenized at the gateway's client API named by `clientToken`, as the card frame sends it: its nonce. */
  private async tokenizesAtGateway(clientToken: string, card: TestCard): Promise<string> {
    const token = JSON.parse(Buffer.from(clientToken, 'base64').toString()) as {
      authorizationFingerprint: string;
      clientApiUrl: string;
    };
    const tokenized = await this.page.request.post(`${token.clientApiUrl}/v1/payment_methods/credit_cards`, {
      data: {
        authorizationFingerprint: token.authorizationFingerprint,
        creditCard: {
          number: card.number,
          expirationDate: card.expiry,
          cvv: card.cvv,
          billingAddress: { postalCode: card.postalCode },
        },
      },
    });
    expect(tokenized.status()).toBe(201);
    const [{ nonce }] = ((await tokenized.json()) as { creditCards: [{ nonce: string }] }).creditCards;
    return nonce;
  }

  /** Opens one of the account's pages through the header's Account link and the account navigation. */
  async openAccount(page: AccountPage): Promise<void> {
    await this.page.getByRole('banner').getByRole('link', { name: 'Account', exact: true }).click();
    await this.page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: page, exact: true }).click();
    await expect(this.page.getByRole('heading', { level: 1, name: page })).toBeVisible();
  }

  /** A row of an account page (a saved card, a subscription, an order), found by its heading. */
  accountRow(heading: string | RegExp) {
    return this.page.getByRole('listitem').filter({ has: this.page.getByRole('heading', { name: heading }) });
  }

  /** The account page's announcement of what was just done ("Visa ending in 1111 saved."). */
  accountStatus() {
    return this.page.locator('.account-content > [role="status"]');
  }

  /** On "Payment methods": types a card into the checkout's card form and saves it. */
  async addsCardOnAccountPage(card: TestCard): Promise<void> {
    await this.page.getByRole('button', { name: 'Add a card' }).click();
    await expect(this.page.locator('[data-kassa-checkout]')).toHaveAttribute('data-state', 'ready');
    await this.enterCard(card);
    await this.pressBelowCard(this.page.getByRole('button', { name: 'Save card' }));
  }

  /**
   * Presses a button of the page under the card form, scrolled into view first, not by the click itself. Chromium
   * routes a click to a frame by the last frame the page drew: a click sent as soon as Playwright's own scroll is done
   * (the page still busy with the card just entered, which starts the device data and the proof of work) went by the
   * layout from before the scroll, to the card frame that had been under the button (the CVV's), and the page's button
   * never heard it (seen 5 times in 9 saves on the account page, the card filled at once). Once scrolled, the click
   * waits for the button to be still over two animation frames, so the page has drawn the scroll.
   */
  async pressBelowCard(button: Locator, press: 'click' | 'dblclick' = 'click'): Promise<void> {
    await button.scrollIntoViewIfNeeded();
    await button[press]();
  }

  /** The Idempotency-Key of every payment the page posts from now on, in order. */
  recordPaymentRequests(): string[] {
    const keys: string[] = [];
    this.page.on('request', (request) => {
      if (request.method() === 'POST' && /\/api\/orders\/[^/]+\/payments$/.test(request.url())) {
        keys.push(request.headers()['idempotency-key'] ?? '');
      }
    });
    return keys;
  }

  /** The shop's Pay button ("Pay €12.00"), not a wallet's own ("Pay with PayPal"). */
  payButton() {
    return this.page.getByRole('button', { name: /^Pay (?!with )/ });
  }

  async pay(): Promise<void> {
    await this.pressBelowCard(this.payButton());
  }

  async seesReceipt(): Promise<string> {
    await expect(this.page.getByRole('heading', { name: 'Thank you, your payment went through' })).toBeVisible();
    const orderId = /\/orders\/([^/]+)\/receipt/.exec(this.page.url())?.[1];
    if (!orderId) throw new Error(`not on a receipt page: ${this.page.url()}`);
    return orderId;
  }

  async seesPaymentError(message: string | RegExp): Promise<void> {
    await expect(this.page.locator('.payment-feedback')).toHaveText(message);
  }

  /** What the checkout page says of the order's last attempt when its answer was lost (issue 10). */
  async seesAttemptStatus(message: string | RegExp): Promise<void> {
    await expect(this.page.locator('.attempt-status')).toHaveText(message);
  }

  /** The saved cards in the checkout (a radio per card, named "Visa ending in 1881"). */
  savedCard(label: string) {
    return this.page.locator('[data-kassa-checkout]').getByRole('radio', { name: label });
  }

  /** Pays with a saved card: it is chosen (preselected or clicked), and nothing is typed. */
  async payWithSavedCard(label: string): Promise<void> {
    await expect(this.page.locator('[data-kassa-checkout]')).toHaveAttribute('data-view', 'methods');
    await this.savedCard(label).check();
    await expect(this.page.locator('[data-kassa-checkout]').getByRole('heading', { name: 'Paying with Card' })).toBeVisible();
    await this.pay();
  }

  /** The message under a card field (the element its frame's aria-describedby names), '' when none. */
  fieldError(field: CardField) {
    return this.page.locator(`[data-kassa-checkout] .kassa-field[data-field="${field}"] .kassa-field__error`);
  }
}
