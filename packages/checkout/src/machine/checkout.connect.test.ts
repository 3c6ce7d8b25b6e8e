import { describe, expect, it } from 'vitest';
import { en } from '../i18n/catalogue.ts';
import { enOnDemand } from '../i18n/catalogue-on-demand.ts';
import { createTranslator } from '../i18n/i18n.ts';
import { connectCard, connectRoot } from './checkout.connect.ts';
import { initialState, transition } from './checkout.machine.ts';
import type { CheckoutEvent, CheckoutState } from './checkout.types.ts';
import { connectOptions } from './options.connect.ts';
import { amex, checkoutSettings, gatewayConfiguration, paymentMethodResult } from '../testing/fixtures.ts';
import { step } from '../testing/machine.ts';

// Every English sentence: those of the parts too (a card is selected by the payment's, which brings its sentence).
const t = createTranslator({ ...en, ...enOnDemand });
const config = gatewayConfiguration({ challenges: ['cvv'], supportedCardTypes: ['Visa', 'MasterCard', 'American Express'] });
const cardOnly: CheckoutEvent = { type: 'CONFIG_LOADED', config, options: ['card'] };
const cardReady: CheckoutEvent = { type: 'OPTION_READY', option: 'card' };

/** The machine after these events, every part installed (the frames' reports are the typing part's). */
function after(...events: CheckoutEvent[]): CheckoutState {
  return events.reduce(
    (state, event) => step(state, event).state,
    initialState(checkoutSettings({ cardholderName: 'required' })),
  );
}

describe('connect', () => {
  it('draws the card form under the loading overlay until the frames are ready, inert meanwhile', () => {
    expect(connectRoot(after(), t)).toMatchObject({
      dataState: 'loading',
      busy: true,
      loadingText: 'Loading the payment form…',
      view: 'card',
      cardMounted: true,
    });
    const mounting = after(cardOnly);
    expect(connectRoot(mounting, t)).toMatchObject({ dataState: 'loading', view: 'card', cardMounted: true });
    expect(connectCard(mounting, t).inert).toBe(true);
    expect(connectRoot(after(cardOnly, cardReady), t)).toMatchObject({
      dataState: 'ready',
      busy: false,
      loadingText: null,
      alert: '',
      toggleText: null,
    });
  });

  it("opens the card form once the number's frame is ready: the number takes typing, the others as their frames come, the request waits for all", () => {
    const frame = (field: 'number' | 'cvv' | 'cardholderName' | 'expirationDate'): CheckoutEvent => ({
      type: 'FRAME_READY',
      field,
    });
    const inertFields = (state: CheckoutState) =>
      connectCard(state, t)
        .fields.filter((f) => f.inert)
        .map((f) => f.field);
    // A frame ready before the configuration says which fields show: still loading.
    const early = after(frame('number'));
    expect(connectRoot(early, t).loadingText).toBe('Loading the payment form…');
    expect(connectCard(early, t).inert).toBe(true);
    // Another frame without the number's: still loading.
    expect(connectCard(after(cardOnly, frame('cardholderName')), t).inert).toBe(true);
    const numberFirst = after(frame('number'), cardOnly);
    expect(connectRoot(numberFirst, t)).toMatchObject({ dataState: 'loading', busy: true, loadingText: null });
    expect(connectCard(numberFirst, t).inert).toBe(false);
    expect(inertFields(numberFirst)).toEqual(['cardholderName', 'expirationDate', 'cvv']);
    expect(inertFields(after(frame('number'), cardOnly, frame('cvv'), frame('cvv')))).toEqual([
      'cardholderName',
      'expirationDate',
    ]);
    // Typed in meanwhile, the card is not handed over before every frame is ready.
    const typed = step(numberFirst, {
      type: 'FIELD_STATE',
      field: 'number',
      event: 'input',
      state: { isEmpty: false, isValid: true, isPotentiallyValid: true, isFocused: true },
    }).state;
    expect(typed.fields.number.state.isValid).toBe(true);
    // (The runtime passes a submit on once the payment's part is installed.)
    expect(step(typed, { type: 'SUBMIT' }).effects).toContainEqual(
      expect.objectContaining({ type: 'rejectRequest', error: expect.objectContaining({ code: 'not_ready' }) }),
    );
    expect(inertFields(after(frame('number'), cardOnly, cardReady))).toEqual([]);
  });

  it('keeps the card form loading after Try again until the frames mounted again are ready, not opened by the first ones', () => {
    const mounted: CheckoutEvent = { type: 'FIELDS_MOUNTED' };
    const numberReady: CheckoutEvent = { type: 'FRAME_READY', field: 'number' };
    const failed: CheckoutEvent = {
      type: 'CONFIG_FAILED',
      error: { code: 'network', messageKey: 'error.network', retriable: true },
    };
    // The first frames were ready when the configuration failed; Try again mounts new ones (the card view is back).
    const retried = after(mounted, numberReady, failed, { type: 'RETRY' }, mounted, cardOnly);
    expect(retried.framesReady).toEqual([]);
    expect(connectRoot(retried, t).loadingText).toBe('Loading the payment form…');
    expect(connectCard(retried, t).inert).toBe(true);
    const newNumber = transition(retried, numberReady).state;
    expect(connectCard(newNumber, t).inert).toBe(false);
  });

  it('offers a retry only for failures a retry can fix, and none when the checkout retries by itself', () => {
    const network = after({ type: 'CONFIG_FAILED', error: { code: 'network', messageKey: 'error.network', retriable: true } });
    expect(connectRoot(network, t)).toMatchObject({
      dataState: 'error',
      alert: 'Network error. Please try again.',
      retryText: 'Try again',
      cardMounted: false,
      view: null,
    });
    const bad = after({
      type: 'CONFIG_FAILED',
      error: { code: 'invalid_authorization', messageKey: 'error.invalidAuthorization', retriable: false },
    });
    expect(connectRoot(bad, t).retryText).toBeNull();
    const limited = after({
      type: 'CONFIG_FAILED',
      error: { code: 'rate_limited', messageKey: 'error.rateLimited', retriable: true, retryAfterMs: 1000 },
    });
    expect(connectRoot(limited, t)).toMatchObject({
      alert: 'The payment service is busy right now. Please wait a moment and try again.',
      retryText: null,
    });
  });

  it('names the CVV length and shows the detected brand, also inside the number field', () => {
    const state = after(cardOnly, cardReady, { type: 'CARD_TYPE_CHANGED', cards: [amex] });
    const card = connectCard(state, t);
    expect(card.fields.map((f) => f.label)).toEqual(['Cardholder name', 'Card number', 'Expiration date', 'CVV (4 digits)']);
    expect(card.fields[0]?.optionalNote).toBeNull();
    expect(card.brands.map((b) => `${b.name}${b.active ? '*' : ''}`)).toEqual(['Visa', 'Mastercard', 'American Express*']);
    expect(card.detected).toEqual({ id: 'american-express', name: 'American Express', active: true });
  });

  it('lists the options with "Choose a way to pay", the failed one disabled with a note, and the toggle elsewhere', () => {
    const several: CheckoutEvent = {
      type: 'CONFIG_LOADED',
      config: { ...config, paypalEnabled: true },
      options: ['card', 'paypal'],
    };
    const state = after(several, cardReady, { type: 'OPTION_FAILED', option: 'paypal' });
    expect(connectOptions(state, t)).toEqual({
      heading: 'Choose a way to pay',
      items: [
        { id: 'card', label: 'Card', disabled: false, note: null },
        { id: 'paypal', label: 'PayPal', disabled: true, note: 'Not available right now' },
      ],
    });
    expect(connectRoot(state, t)).toMatchObject({ view: 'options', toggleText: null });
    const card = step(state, { type: 'SELECT_OPTION', option: 'card' }).state;
    expect(connectRoot(card, t)).toMatchObject({ view: 'card', toggleText: 'Choose another way to pay' });
    expect(connectOptions({ ...state, savedMethods: [paymentMethodResult] }, t).heading).toBe('Other ways to pay');
  });

  it('offers no "Choose another way to pay" while a load runs, though Try again keeps the saved methods the failed load listed', () => {
    const customer: CheckoutEvent = { ...cardOnly, savedMethods: [paymentMethodResult] };
    const failed = after(customer, { type: 'OPTION_FAILED', option: 'card' });
    expect(failed.phase).toBe('error');
    const retrying = step(failed, { type: 'RETRY' }).state;
    expect(retrying).toMatchObject({ phase: 'loading', view: null, savedMethods: [paymentMethodResult] });
    expect(connectRoot(retrying, t)).toMatchObject({ busy: true, view: 'card', toggleText: null });
  });

  it('says which card is ready to pay in the header, unless a message takes its place', () => {
    const selected = { ...after(cardOnly, cardReady), selected: paymentMethodResult };
    expect(connectRoot(selected, t).statusText).toBe('Visa ending in 1111 is ready to pay.');
  });
});
