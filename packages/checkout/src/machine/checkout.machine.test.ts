import { describe, expect, it } from 'vitest';
import { initialState, transition } from './checkout.machine.ts';
import type {
  CheckoutEffect,
  CheckoutEvent,
  CheckoutSettings,
  CheckoutState,
  FieldName,
  FieldState,
  GatewayConfiguration,
} from './checkout.types.ts';
import { EMPTY, INVALID, VALID, amex, gatewayConfiguration, jcb, paymentMethodResult as result, visa } from '../testing/fixtures.ts';

const config = gatewayConfiguration({ challenges: ['cvv', 'postal_code'], supportedCardTypes: ['Visa', 'MasterCard', 'American Express'] });

const defaults: CheckoutSettings = { cardholderName: 'optional', clearFieldsAfterTokenization: true };

/** Feeds events in order and collects every effect. */
function run(state: CheckoutState, ...events: CheckoutEvent[]): { state: CheckoutState; effects: CheckoutEffect[] } {
  const effects: CheckoutEffect[] = [];
  let current = state;
  for (const event of events) {
    const step = transition(current, event);
    current = step.state;
    effects.push(...step.effects);
  }
  return { state: current, effects };
}

function ready(settings: CheckoutSettings = defaults, gateway: GatewayConfiguration = config): CheckoutState {
  return run(initialState(settings), { type: 'CONFIG_LOADED', config: gateway }, { type: 'FRAMES_READY' }).state;
}

const input = (field: FieldName, state: FieldState): CheckoutEvent => ({ type: 'FIELD_STATE', field, event: 'input', state });
const focus = (field: FieldName, state: FieldState = EMPTY): CheckoutEvent => ({
  type: 'FIELD_STATE',
  field,
  event: 'focus',
  state: { ...state, isFocused: true },
});
const blur = (field: FieldName, state: FieldState): CheckoutEvent => ({ type: 'FIELD_STATE', field, event: 'blur', state });

/** Every shown field filled in validly, with a Visa number. */
function filled(state: CheckoutState): CheckoutState {
  return run(
    state,
    { type: 'CARD_TYPE_CHANGED', cards: [visa] },
    ...state.visibleFields.map((field) => input(field, VALID)),
  ).state;
}

describe('loading', () => {
  it('starts loading, then shows the card view directly when the card is the only option', () => {
    const start = initialState(defaults);
    expect(start.phase).toBe('loading');
    const loaded = run(start, { type: 'CONFIG_LOADED', config });
    expect(loaded.state.phase).toBe('mounting');
    expect(loaded.state.view).toBe('card');
    const { state, effects } = run(loaded.state, { type: 'FRAMES_READY' });
    expect(state.phase).toBe('ready');
    expect(effects).toEqual([{ type: 'announceReady' }]);
  });

  it('shows CVV and postal code only when the gateway challenges them, the name only when the merchant asks', () => {
    expect(ready().visibleFields).toEqual(['cardholderName', 'number', 'expirationDate', 'cvv', 'postalCode']);
    const bare = ready({ ...defaults, cardholderName: false }, { ...config, challenges: [] });
    expect(bare.visibleFields).toEqual(['number', 'expirationDate']);
  });

  it('fails with no payment option when the gateway supports no card type', () => {
    const { state, effects } = run(initialState(defaults), {
      type: 'CONFIG_LOADED',
      config: { ...config, creditCards: { supportedCardTypes: [] } },
    });
    expect(state.phase).toBe('error');
    expect(effects).toEqual([{ type: 'reportLoadError', error: expect.objectContaining({ code: 'no_payment_options' }) }]);
    expect(run(state, { type: 'RETRY' }).state.phase).toBe('error');
  });

  it('retries a network failure by loading the configuration again', () => {
    const error = { code: 'network', messageKey: 'error.network', retriable: true } as const;
    const failed = run(initialState(defaults), { type: 'CONFIG_FAILED', error });
    expect(failed.state.phase).toBe('error');
    expect(failed.state.loadError).toEqual(error);
    const retried = run(failed.state, { type: 'RETRY' });
    expect(retried.state.phase).toBe('loading');
    expect(retried.state.loadError).toBeNull();
    expect(retried.effects).toEqual([{ type: 'loadConfiguration' }]);
  });

  it('does not retry a rejected authorization', () => {
    const error = { code: 'authorization_rejected', messageKey: 'error.authorizationRejected', retriable: false } as const;
    const failed = run(initialState(defaults), { type: 'CONFIG_FAILED', error });
    expect(run(failed.state, { type: 'RETRY' }).effects).toEqual([]);
  });

  it('rejects a request before the form is ready', () => {
    const { effects } = run(initialState(defaults), { type: 'SUBMIT' });
    expect(effects).toEqual([{ type: 'rejectRequest', error: expect.objectContaining({ code: 'not_ready' }) }]);
  });
});

describe('error timing', () => {
  it('shows the invalid message when a non-empty invalid field loses focus, and typing clears it', () => {
    const blurred = run(ready(), focus('number'), input('number', INVALID), blur('number', INVALID)).state;
    expect(blurred.fields.number.error).toBe('field.number.invalid');
    const typed = run(blurred, focus('number', INVALID), input('number', { ...INVALID, isPotentiallyValid: true })).state;
    expect(typed.fields.number.error).toBeNull();
  });

  it('does not complain while the shopper is still typing an incomplete number', () => {
    const { state } = run(ready(), focus('number'), input('number', { ...INVALID, isPotentiallyValid: true }));
    expect(state.fields.number.error).toBeNull();
  });

  it('shows the empty message when focus moves from an empty field to another card field', () => {
    const { state } = run(ready(), focus('number'), blur('number', EMPTY), focus('expirationDate'));
    expect(state.fields.number.error).toBe('field.number.empty');
    expect(state.fields.expirationDate.error).toBeNull();
  });

  it('also when the sibling focus arrives before the blur', () => {
    const { state } = run(ready(), focus('number'), focus('cvv'), blur('number', EMPTY));
    expect(state.fields.number.error).toBe('field.number.empty');
  });

  it('stays quiet when an empty field loses focus to something outside the form', () => {
    const left = run(ready(), focus('number'), blur('number', EMPTY));
    expect(left.state.fields.number.error).toBeNull();
    expect(left.effects).toContainEqual({ type: 'scheduleBlurSettle', field: 'number' });
    const later = run(left.state, { type: 'BLUR_SETTLED', field: 'number' }, focus('expirationDate'));
    expect(later.state.fields.number.error).toBeNull();
  });

  it('stays quiet when the same field regains focus', () => {
    const { state } = run(ready(), focus('number'), blur('number', EMPTY), focus('number'));
    expect(state.fields.number.error).toBeNull();
  });
});

describe('cardholder name', () => {
  it('may stay empty when optional, and is then not sent for tokenization', () => {
    const start = ready({ ...defaults, cardholderName: 'optional' });
    const moved = run(start, focus('cardholderName'), blur('cardholderName', EMPTY), focus('number')).state;
    expect(moved.fields.cardholderName.error).toBeNull();
    let state = run(start, { type: 'CARD_TYPE_CHANGED', cards: [visa] }, ...['number', 'expirationDate', 'cvv', 'postalCode'].map((f) => input(f as FieldName, VALID))).state;
    const submitted = run(state, { type: 'SUBMIT' });
    expect(submitted.state.phase).toBe('submitting');
    expect(submitted.effects).toContainEqual({ type: 'tokenize', fields: ['number', 'expirationDate', 'cvv', 'postalCode'] });
    state = run(state, input('cardholderName', VALID), { type: 'SUBMIT' }).state;
    expect(state.phase).toBe('submitting');
  });

  it('is required when the merchant requires it', () => {
    const start = ready({ ...defaults, cardholderName: 'required' });
    const moved = run(start, focus('cardholderName'), blur('cardholderName', EMPTY), focus('number')).state;
    expect(moved.fields.cardholderName.error).toBe('field.cardholderName.empty');
    const state = run(start, { type: 'CARD_TYPE_CHANGED', cards: [visa] }, ...['number', 'expirationDate', 'cvv', 'postalCode'].map((f) => input(f as FieldName, VALID)));
    expect(run(state.state, { type: 'SUBMIT' }).state.fields.cardholderName.error).toBe('field.cardholderName.empty');
  });

  it('shows its invalid message for a name the frame rejects', () => {
    const { state } = run(ready(), focus('cardholderName'), blur('cardholderName', INVALID));
    expect(state.fields.cardholderName.error).toBe('field.cardholderName.invalid');
  });
});

describe('card brands', () => {
  it('rejects a valid number of a brand the gateway does not support', () => {
    const { state } = run(ready(), { type: 'CARD_TYPE_CHANGED', cards: [jcb] }, input('number', VALID));
    expect(state.fields.number.error).toBe('field.number.unsupported');
    expect(state.requestability.requestable).toBe(false);
  });

  it('does not judge support while the brand is still ambiguous', () => {
    const { state } = run(ready(), { type: 'CARD_TYPE_CHANGED', cards: [jcb, visa] }, input('number', { ...INVALID, isPotentiallyValid: true }));
    expect(state.fields.number.error).toBeNull();
  });

  it('drops the unsupported message when the brand changes to a supported one', () => {
    const bad = run(ready(), { type: 'CARD_TYPE_CHANGED', cards: [jcb] }, input('number', VALID)).state;
    const { state } = run(bad, { type: 'CARD_TYPE_CHANGED', cards: [visa] });
    expect(state.fields.number.error).toBeNull();
  });

  it('keeps the detected brand for the CVV size (3 or 4 digits)', () => {
    expect(run(ready(), { type: 'CARD_TYPE_CHANGED', cards: [amex] }).state.cards).toEqual([amex]);
  });
});

describe('requestPaymentMethod', () => {
  it('validates every field, shows each message and the sheet error, and rejects', () => {
    const { state, effects } = run(ready(), input('number', INVALID), { type: 'SUBMIT' });
    expect(state.phase).toBe('ready');
    expect(state.sheetError).toBe('error.checkEntries');
    expect(state.fields.number.error).toBe('field.number.invalid');
    expect(state.fields.expirationDate.error).toBe('field.expirationDate.empty');
    expect(state.fields.cvv.error).toBe('field.cvv.empty');
    expect(state.fields.postalCode.error).toBe('field.postalCode.empty');
    expect(state.fields.cardholderName.error).toBeNull();
    expect(effects).toEqual([{ type: 'rejectRequest', error: expect.objectContaining({ code: 'invalid_fields' }) }]);
  });

  it('tokenizes a valid card, resolves, clears the fields and keeps the card selected', () => {
    const submitted = run(filled(ready()), { type: 'SUBMIT' });
    expect(submitted.state.phase).toBe('submitting');
    expect(run(submitted.state, { type: 'SUBMIT' }).effects).toEqual([
      { type: 'rejectRequest', error: expect.objectContaining({ code: 'request_in_progress' }) },
    ]);
    const done = run(submitted.state, { type: 'TOKENIZED', result });
    expect(done.state.phase).toBe('ready');
    expect(done.state.selected).toEqual(result);
    expect(done.state.fields.number.state.isEmpty).toBe(true);
    expect(done.effects).toEqual([
      { type: 'clearFields' },
      { type: 'resolveRequest', result },
      { type: 'paymentMethodRequestable', paymentMethodIsSelected: true },
    ]);
    // Asked again, it returns the selected card; typing a new card deselects it.
    expect(run(done.state, { type: 'SUBMIT' }).effects).toEqual([{ type: 'resolveRequest', result }]);
    const retyped = run(done.state, input('number', { ...INVALID, isPotentiallyValid: true }));
    expect(retyped.state.selected).toBeNull();
    expect(retyped.effects).toEqual([{ type: 'noPaymentMethodRequestable' }]);
  });

  it('keeps the fields when clearing after tokenization is turned off', () => {
    const start = filled(ready({ ...defaults, clearFieldsAfterTokenization: false }));
    const done = run(start, { type: 'SUBMIT' }, { type: 'TOKENIZED', result });
    expect(done.effects).not.toContainEqual({ type: 'clearFields' });
    expect(done.state.fields.number.state.isValid).toBe(true);
  });

  it('maps tokenization failures to catalogue messages and rejects', () => {
    const submitting = run(filled(ready()), { type: 'SUBMIT' }).state;
    const network = run(submitting, { type: 'TOKENIZE_FAILED', failure: { code: 'network', message: 'offline' } });
    expect(network.state.phase).toBe('ready');
    expect(network.state.sheetError).toBe('error.network');
    expect(network.effects).toContainEqual({ type: 'rejectRequest', error: expect.objectContaining({ code: 'network' }) });

    const invalid = run(submitting, {
      type: 'TOKENIZE_FAILED',
      failure: { code: 'invalid_fields', message: 'Credit card number is invalid', fields: ['number'] },
    });
    expect(invalid.state.sheetError).toBe('error.cardInvalid');
    expect(invalid.state.fields.number.error).toBe('field.number.invalid');

    const unsupported = run(submitting, { type: 'TOKENIZE_FAILED', failure: { code: 'unsupported_card_type', message: 'no' } });
    expect(unsupported.state.fields.number.error).toBe('field.number.unsupported');

    const odd = run(submitting, { type: 'TOKENIZE_FAILED', failure: { code: 'teapot', message: '?' } });
    expect(odd.state.sheetError).toBe('error.gateway');
  });

  it('clears the sheet error once every field is acceptable', () => {
    const rejected = run(ready(), { type: 'SUBMIT' }).state;
    expect(rejected.sheetError).toBe('error.checkEntries');
    expect(filled(rejected).sheetError).toBeNull();
  });

  it('clearSelectedPaymentMethod empties the form and the selection', () => {
    const done = run(filled(ready()), { type: 'SUBMIT' }, { type: 'TOKENIZED', result }).state;
    const cleared = run(done, { type: 'CLEAR_SELECTION' });
    expect(cleared.state.selected).toBeNull();
    expect(cleared.effects).toEqual([{ type: 'clearFields' }, { type: 'noPaymentMethodRequestable' }]);
  });
});

describe('requestable events', () => {
  it('fire only when requestability changes', () => {
    let state = ready({ ...defaults, cardholderName: false }, { ...config, challenges: [] });
    const events: CheckoutEffect[] = [];
    for (const event of [
      { type: 'CARD_TYPE_CHANGED', cards: [visa] },
      input('number', VALID),
      input('expirationDate', VALID),
      input('expirationDate', VALID),
      input('number', VALID),
      input('number', INVALID),
      input('number', { ...INVALID, isPotentiallyValid: true }),
    ] satisfies CheckoutEvent[]) {
      const step = transition(state, event);
      state = step.state;
      events.push(...step.effects.filter((e) => e.type === 'paymentMethodRequestable' || e.type === 'noPaymentMethodRequestable'));
    }
    expect(events).toEqual([{ type: 'paymentMethodRequestable', paymentMethodIsSelected: false }, { type: 'noPaymentMethodRequestable' }]);
  });

  it('never fire before the form is ready', () => {
    const loaded = run(initialState(defaults), { type: 'CONFIG_LOADED', config });
    expect(run(loaded.state, input('number', VALID)).effects).toEqual([]);
  });
});
