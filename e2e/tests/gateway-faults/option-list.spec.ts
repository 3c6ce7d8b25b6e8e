import { expect, type Page, test } from '@playwright/test';
import { CheckoutSheet } from '../../support/checkout-sheet.ts';
import { botcheckToken } from '../../support/botcheck-token.ts';
import {
  integratorErrors,
  integratorEvents,
  instanceCall,
  newOrderCheckout,
  openIntegratorPage,
  type RecordedEvent,
  requestPaymentMethod,
} from '../../support/integrator-page.ts';
import type { FileFaults } from '../../support/page-bundle.ts';
import { changeSandboxSettings, resetSandboxSettings } from '../../support/sandbox-settings.ts';
import { cards, Shopper } from '../../support/shopper.ts';

// The option list on an integrator's page (support/integrator-page.ts) with PayPal and Venmo turned on at the gateway
// and in the options: the messages an integrator's own Pay button meets before the shopper has chosen or used a
// wallet, and the events of the provider's drop-in API the integrator receives through a whole card flow. Under
// gateway-faults/: merchant settings apply to the whole running product.
test.beforeEach(async () => {
  await changeSandboxSettings({ wallets: ['paypal', 'venmo'] });
});
test.afterEach(async () => {
  await resetSandboxSettings();
});

/** The integrator's page with PayPal and Venmo in its options, on the option list (Card, PayPal, Venmo), for a new order. */
async function openOptionList(page: Page, faults?: FileFaults): Promise<{ sheet: CheckoutSheet; orderId: string }> {
  const wallets = { paypal: { amount: '12.00' }, venmo: { amount: '12.00' } };
  const { orderId, clientToken } = await newOrderCheckout(page);
  await openIntegratorPage(page, { authorization: clientToken, options: wallets }, faults);
  const sheet = new CheckoutSheet(page);
  await sheet.seesState('ready');
  await sheet.seesView('options');
  return { sheet, orderId };
}

test('Pay before a choice: "Choose a way to pay first."; on PayPal\'s view: "Use the PayPal button…"; on Venmo\'s: "Use the button above…"; a view change clears each and moves focus (the wallet\'s button, the first option, the first card field)', async ({
  page,
}) => {
  const { sheet } = await openOptionList(page);

  expect(await requestPaymentMethod(page)).toEqual([
    { ok: false, code: 'no_payment_method', message: 'Choose a way to pay first.' },
  ]);
  await expect(sheet.message()).toHaveText('Choose a way to pay first.');

  const wallets = [
    { option: 'PayPal', view: 'paypal', message: 'Use the PayPal button to continue with your payment.' },
    { option: 'Venmo', view: 'venmo', message: 'Use the button above to continue with your payment.' },
  ] as const;
  for (const { option, view, message } of wallets) {
    await sheet.root().getByRole('button', { name: option, exact: true }).click();
    await sheet.seesView(view);
    await expect(sheet.message()).toHaveText('');
    // Every view change moves focus to the new view's first control: here the wallet's button, then the first option.
    await expect(sheet.root().getByRole('button', { name: `Pay with ${option}`, exact: true })).toBeFocused();
    expect(await requestPaymentMethod(page)).toEqual([{ ok: false, code: 'use_wallet_button', message }]);
    await expect(sheet.message()).toHaveText(message);
    await sheet.toggle().click();
    await sheet.seesView('options');
    await expect(sheet.message()).toHaveText('');
    await expect(sheet.root().getByRole('button', { name: 'Card', exact: true })).toBeFocused();
  }
  // The card's view: its first control is the first card field (a frame), and the message goes with the list.
  expect(await requestPaymentMethod(page)).toEqual([
    { ok: false, code: 'no_payment_method', message: 'Choose a way to pay first.' },
  ]);
  await sheet.root().getByRole('button', { name: 'Card', exact: true }).click();
  await sheet.seesView('card');
  await expect(sheet.message()).toHaveText('');
  await expect.poll(() => sheet.focusedField()).toBe('cardholderName');
});

/** An event as the test compares it: its name and, for a card field event, the field that emitted it. */
const named = (event: RecordedEvent): string => {
  const emittedBy = (event.payload as { emittedBy?: string } | undefined)?.emittedBy;
  return emittedBy === undefined ? event.name : `${event.name} ${emittedBy}`;
};

const payloadOf = <T>(events: readonly RecordedEvent[], name: string, at = 0): T =>
  events.filter((event) => named(event) === name)[at]?.payload as T;

test('the events an integrator receives through a card flow: option chosen, view changed, each field, requestable, paid (the nonce charged by the server), cleared (each field empty), back to the list', async ({
  page,
}) => {
  const { sheet, orderId } = await openOptionList(page);
  expect(await integratorEvents(page)).toEqual([]);
  expect(await instanceCall(page, 'getAvailablePaymentOptions')).toEqual(['card', 'paypal', 'venmo']);
  expect(await instanceCall(page, 'isPaymentMethodRequestable')).toBe(false);
  // A handler taken off again with off() hears nothing.
  await page.evaluate(() => {
    const page = window as unknown as {
      offHeard: number;
      integrator: { instance: { on(name: string, handler: () => void): void; off(name: string, handler: () => void): void } };
    };
    page.offHeard = 0;
    const handler = (): void => {
      page.offHeard += 1;
    };
    page.integrator.instance.on('paymentOptionSelected', handler);
    page.integrator.instance.off('paymentOptionSelected', handler);
  });

  await sheet.root().getByRole('button', { name: 'Card', exact: true }).click();
  await sheet.seesView('card');
  expect(await page.evaluate(() => (window as unknown as { offHeard: number }).offHeard)).toBe(0);
  await new Shopper(page).typeCard(cards.visa);
  await expect.poll(async () => (await integratorEvents(page)).map((event) => event.name)).toContain('paymentMethodRequestable');
  const typed = await integratorEvents(page);
  // A field: focus, not empty, valid, blur; the number also its brands (all it may be, then Visa) and its BIN.
  const field = (name: string, last = false) => [
    `card:focus ${name}`,
    `card:notEmpty ${name}`,
    `card:validityChange ${name}`,
    ...(last ? [] : [`card:blur ${name}`]),
  ];
  expect(typed.map(named)).toEqual([
    'paymentOptionSelected',
    'changeActiveView',
    ...field('cardholderName'),
    'card:focus number',
    'card:cardTypeChange number',
    'card:notEmpty number',
    'card:cardTypeChange number',
    'card:binAvailable',
    'card:validityChange number',
    'card:blur number',
    ...field('expirationDate'),
    ...field('cvv'),
    ...field('postalCode', true),
    // The last field became valid: the form can be requested (not yet tokenized).
    'paymentMethodRequestable',
  ]);
  expect(payloadOf(typed, 'paymentOptionSelected')).toEqual({ paymentOption: 'card' });
  expect(payloadOf(typed, 'changeActiveView')).toEqual({ previousViewId: 'options', newViewId: 'card' });
  expect(payloadOf(typed, 'card:binAvailable')).toEqual({ bin: '411111' });
  const brands = (at: number) =>
    payloadOf<{ cards: Array<{ type: string }> }>(typed, 'card:cardTypeChange number', at).cards.map((card) => card.type);
  expect(brands(0)).toContain('visa');
  expect(brands(0).length).toBeGreaterThan(1);
  expect(brands(1)).toEqual(['visa']);
  // Each field event carries every shown field's state, as the provider's hosted fields do.
  const numberValid = payloadOf<{ fields: Record<string, { isValid: boolean }> }>(typed, 'card:validityChange number');
  expect(Object.keys(numberValid.fields)).toEqual(['cardholderName', 'number', 'expirationDate', 'cvv', 'postalCode']);
  expect(numberValid.fields.number).toEqual({ isEmpty: false, isValid: true, isPotentiallyValid: true, isFocused: true });
  expect(numberValid.fields.expirationDate).toMatchObject({ isEmpty: true, isValid: false });
  expect(payloadOf(typed, 'paymentMethodRequestable')).toEqual({ type: 'CreditCard', paymentMethodIsSelected: false });
  expect(await instanceCall(page, 'isPaymentMethodRequestable')).toBe(true);

  // Paid (the integrator's Pay button): the card is now selected, and its nonce pays the order on the shop's server.
  const [paid] = await requestPaymentMethod(page);
  expect(paid).toMatchObject({ ok: true, result: { type: 'CreditCard', details: { bin: '411111', lastFour: '1111' } } });
  if (!paid?.ok) throw new Error('the card was not handed over');
  const { nonce, deviceData } = paid.result;
  const charged = await page.request.post(`/api/orders/${orderId}/payments`, {
    data: { nonce, deviceData, botcheck: await botcheckToken(page.request, 'payment') },
    headers: { 'idempotency-key': `e2e-${crypto.randomUUID()}` },
  });
  expect(charged.status()).toBe(201);
  expect(await charged.json()).toMatchObject({ order: { id: orderId, status: 'paid' } });
  // Cleared after the payment: nothing to request.
  await instanceCall(page, 'clearSelectedPaymentMethod');
  expect(await instanceCall(page, 'isPaymentMethodRequestable')).toBe(false);
  await sheet.toggle().click();
  await sheet.seesView('options');
  // Clearing: each field reports empty and no longer valid once, as the provider's cleared fields do, and none
  // reports its old digits again.
  // The toggle takes focus from the postal code: its frame's blur arrives on its own time (waited for, not ordered).
  const blursAfter = async () =>
    (await integratorEvents(page))
      .slice(typed.length)
      .filter((event) => event.name === 'card:blur')
      .map(named);
  await expect.poll(blursAfter).toEqual(['card:blur postalCode']);
  const after = (await integratorEvents(page)).slice(typed.length);
  const others = after.filter((event) => event.name !== 'card:blur');
  const shown = ['cardholderName', 'number', 'expirationDate', 'cvv', 'postalCode'];
  expect(others.map(named)).toEqual([
    'paymentMethodRequestable',
    ...shown.flatMap((name) => [`card:empty ${name}`, `card:validityChange ${name}`]),
    'noPaymentMethodRequestable',
    'card:cardTypeChange number',
    'changeActiveView',
  ]);
  expect(payloadOf(after, 'paymentMethodRequestable')).toEqual({ type: 'CreditCard', paymentMethodIsSelected: true });
  const emptied = payloadOf<{ fields: Record<string, { isEmpty: boolean; isValid: boolean }> }>(after, 'card:empty number');
  for (const name of shown) expect(emptied.fields[name]).toMatchObject({ isEmpty: true, isValid: false });
  expect(payloadOf(after, 'noPaymentMethodRequestable')).toBeUndefined();
  // One brand change, to none: the emptied number is no brand (not Visa any more).
  expect(payloadOf(after, 'card:cardTypeChange number')).toMatchObject({ cards: [] });
  expect(payloadOf(after, 'changeActiveView')).toEqual({ previousViewId: 'card', newViewId: 'options' });
  // No event gives the integrator's page more of the card than its BIN.
  expect(JSON.stringify(await integratorEvents(page))).not.toContain(cards.visa.number.slice(6));
});

test('a way to pay that cannot load (its view did not download) is shown disabled, "Not available right now"; the card still pays', async ({
  page,
}) => {
  // The wallet views' chunk fails to download: PayPal and Venmo cannot initialise, the card can.
  const { sheet } = await openOptionList(page, { failing: /^views-/ });
  for (const wallet of ['PayPal', 'Venmo']) {
    const option = sheet.root().getByRole('button', { name: new RegExp(`^${wallet}`) });
    await expect(option).toBeDisabled();
    await expect(option).toHaveAccessibleDescription('Not available right now');
  }
  expect(await instanceCall(page, 'getAvailablePaymentOptions')).toEqual(['card']);
  await sheet.root().getByRole('button', { name: 'Card', exact: true }).click();
  await sheet.seesView('card');
  await new Shopper(page).enterCard(cards.visa);
  expect(await requestPaymentMethod(page)).toEqual([expect.objectContaining({ ok: true })]);
});

test('the option list whose download stalls: the sheet ends at the parts\' time limit with "The payment form cannot start. Reload the page…", no Try again, onError says network', async ({
  page,
}) => {
  await page.clock.install();
  const asked = page.waitForRequest(/\/__integrator\/options-view-/);
  const { sheet } = await openOptionList(page, { stalling: /^options-view-/ });
  await asked;
  // The list's code never arrives: its time limit (OPTION_LOAD_TIMEOUT_MS, runtime/in-time.ts, from the list's first
  // render), run forward on the page's clock; then as when it fails to download (views/on-demand.ts's onDemand).
  await page.clock.fastForward(20_000);
  await sheet.seesState('error');
  const cannotStart = 'The payment form cannot start. Reload the page, or contact the shop if it happens again.';
  await expect(sheet.message()).toHaveText(cannotStart);
  await expect(sheet.root().getByRole('button', { name: 'Try again' })).toHaveCount(0);
  expect(await integratorErrors(page)).toEqual([{ code: 'network', message: cannotStart }]);
});
