import { describe, expect, it } from 'vitest';
import { CORE, createCheckoutMachine, initialState, transition, withParts } from './checkout.machine.ts';
import type {
  CheckoutEffect,
  CheckoutEvent,
  CheckoutSettings,
  CheckoutState,
  FieldName,
  FieldState,
  GatewayConfiguration,
  MachineRules,
} from './checkout.types.ts';
import { paymentPart } from './parts/payment.ts';
import { savedMethodsPart } from './parts/saved-methods.ts';
import { threeDSecurePart } from './parts/three-d-secure.ts';
import type { PaymentOptionId } from './payment-options.ts';
import {
  EMPTY,
  INVALID,
  VALID,
  amex,
  checkoutSettings,
  gatewayConfiguration,
  jcb,
  paymentMethodResult as result,
  visa,
} from '../testing/fixtures.ts';
import { ALL_PARTS, NOT_REQUESTABLE, requestable } from '../testing/machine.ts';

const config = gatewayConfiguration({
  challenges: ['cvv', 'postal_code'],
  supportedCardTypes: ['Visa', 'MasterCard', 'American Express'],
});

const defaults: CheckoutSettings = checkoutSettings({ clearFieldsAfterTokenization: true });

/** Feeds events in order and collects every effect. */
function run(state: CheckoutState, ...events: CheckoutEvent[]): { state: CheckoutState; effects: CheckoutEffect[] } {
  const effects: CheckoutEffect[] = [];
  let current = state;
  for (const event of events) {
    const step = transition(current, event, ALL_PARTS);
    current = step.state;
    effects.push(...step.effects);
  }
  return { state: current, effects };
}

const loaded = (gateway: GatewayConfiguration = config, options: readonly PaymentOptionId[] = ['card']): CheckoutEvent => ({
  type: 'CONFIG_LOADED',
  config: gateway,
  options,
});

function ready(settings: CheckoutSettings = defaults, gateway: GatewayConfiguration = config): CheckoutState {
  return run(initialState(settings), loaded(gateway), { type: 'OPTION_READY', option: 'card' }).state;
}

/** The frames have answered a submit's `settleFields`. */
const SETTLED: CheckoutEvent = { type: 'FIELDS_SETTLED' };

/** The effects other than the card field events (those have their own tests). */
const quiet = (effects: readonly CheckoutEffect[]): CheckoutEffect[] => effects.filter((e) => e.type !== 'cardFieldEvent');

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
  return run(state, { type: 'CARD_TYPE_CHANGED', cards: [visa] }, ...state.visibleFields.map((field) => input(field, VALID)))
    .state;
}

describe('loading', () => {
  it('starts loading, then shows the card view directly when the card is the only option', () => {
    const start = initialState(defaults);
    expect(start.phase).toBe('loading');
    const mounting = run(start, loaded());
    expect(mounting.state.phase).toBe('mounting');
    expect(mounting.state.view).toBe('card');
    const { state, effects } = run(mounting.state, { type: 'OPTION_READY', option: 'card' });
    expect(state.phase).toBe('ready');
    expect(effects).toEqual([{ type: 'announceReady' }]);
  });

  it('shows CVV and postal code only when the gateway challenges them, the name only when the merchant asks', () => {
    expect(ready().visibleFields).toEqual(['cardholderName', 'number', 'expirationDate', 'cvv', 'postalCode']);
    const bare = ready({ ...defaults, cardholderName: false }, { ...config, challenges: [] });
    expect(bare.visibleFields).toEqual(['number', 'expirationDate']);
  });

  it('fails with no payment option when nothing is offered', () => {
    const { state, effects } = run(initialState(defaults), loaded(config, []));
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

  it("keeps a shown message through a report the shopper did not cause (the CVV's length set by the brand), re-judged; typing clears it", () => {
    const validate = (field: FieldName, state: FieldState): CheckoutEvent => ({
      type: 'FIELD_STATE',
      field,
      event: 'validate',
      state,
    });
    // A card without its CVV submitted: every missing field's message and the sheet's show.
    const withoutCvv = run(
      ready(),
      { type: 'CARD_TYPE_CHANGED', cards: [visa] },
      ...(['number', 'expirationDate', 'postalCode'] as const).map((field) => input(field, VALID)),
      { type: 'SUBMIT' },
      SETTLED,
    ).state;
    expect(withoutCvv.fields.cvv.error).toBe('field.cvv.empty');
    const revalidated = run(withoutCvv, validate('cvv', EMPTY)).state;
    expect(revalidated.fields.cvv.error).toBe('field.cvv.empty');
    expect(revalidated.sheetError).toBe('error.checkEntries');
    // Re-judged: a CVV the new length makes acceptable loses its message, and so does the sheet.
    const invalidCvv = run(withoutCvv, input('cvv', INVALID), blur('cvv', INVALID)).state;
    expect(invalidCvv.fields.cvv.error).toBe('field.cvv.invalid');
    expect(run(invalidCvv, validate('cvv', INVALID)).state.fields.cvv.error).toBe('field.cvv.invalid');
    expect(run(invalidCvv, validate('cvv', VALID)).state).toMatchObject({ sheetError: null, fields: { cvv: { error: null } } });
    // It shows no message where none was, and deselects no tokenized card.
    expect(run(ready(), validate('cvv', INVALID)).state.fields.cvv.error).toBeNull();
    const selected = { ...filled(ready()), selected: result };
    expect(run(selected, validate('cvv', VALID)).state.selected).toBe(result);
    // The shopper typing in the CVV clears its message.
    expect(run(revalidated, input('cvv', { ...INVALID, isPotentiallyValid: true })).state.fields.cvv.error).toBeNull();
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
    let state = run(
      start,
      { type: 'CARD_TYPE_CHANGED', cards: [visa] },
      ...['number', 'expirationDate', 'cvv', 'postalCode'].map((f) => input(f as FieldName, VALID)),
    ).state;
    const submitted = run(state, { type: 'SUBMIT' });
    expect(submitted.state.phase).toBe('submitting');
    expect(submitted.effects).toContainEqual({
      type: 'tokenize',
      fields: ['number', 'expirationDate', 'cvv', 'postalCode'],
      vault: false,
    });
    state = run(state, input('cardholderName', VALID), { type: 'SUBMIT' }).state;
    expect(state.phase).toBe('submitting');
  });

  it('is required when the merchant requires it', () => {
    const start = ready({ ...defaults, cardholderName: 'required' });
    const moved = run(start, focus('cardholderName'), blur('cardholderName', EMPTY), focus('number')).state;
    expect(moved.fields.cardholderName.error).toBe('field.cardholderName.empty');
    const state = run(
      start,
      { type: 'CARD_TYPE_CHANGED', cards: [visa] },
      ...['number', 'expirationDate', 'cvv', 'postalCode'].map((f) => input(f as FieldName, VALID)),
    );
    expect(run(state.state, { type: 'SUBMIT' }, SETTLED).state.fields.cardholderName.error).toBe('field.cardholderName.empty');
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
    const { state } = run(
      ready(),
      { type: 'CARD_TYPE_CHANGED', cards: [jcb, visa] },
      input('number', { ...INVALID, isPotentiallyValid: true }),
    );
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
  it('asks the frames to settle when the card is incomplete as far as it has heard, and shows nothing until they have', () => {
    const asked = run(ready(), input('number', INVALID), { type: 'SUBMIT' });
    expect(asked.state).toMatchObject({ phase: 'submitting', sheetError: null });
    expect(asked.state.fields.expirationDate.error).toBeNull();
    expect(quiet(asked.effects)).toEqual([{ type: 'settleFields' }]);
    // A second request meanwhile is told the first is under way.
    expect(run(asked.state, { type: 'SUBMIT' }).effects).toEqual([
      { type: 'rejectRequest', error: expect.objectContaining({ code: 'request_in_progress' }) },
    ]);
  });

  it("tokenizes the card the frames' last reports completed before they settled (filled at once, submitted at once)", () => {
    const asked = run(ready(), { type: 'CARD_TYPE_CHANGED', cards: [visa] }, input('number', VALID), { type: 'SUBMIT' }).state;
    const { state, effects } = run(
      asked,
      ...(['expirationDate', 'cvv', 'postalCode'] as const).map((field) => input(field, VALID)),
      SETTLED,
    );
    expect(state).toMatchObject({ phase: 'submitting', sheetError: null });
    expect(quiet(effects)).toEqual([
      requestable(false),
      { type: 'tokenize', fields: ['number', 'expirationDate', 'cvv', 'postalCode'], vault: false },
    ]);
  });

  it('validates every field once the frames have settled, shows each message and the sheet error, and rejects', () => {
    const { state, effects } = run(ready(), input('number', INVALID), { type: 'SUBMIT' }, SETTLED);
    expect(state.phase).toBe('ready');
    expect(state.sheetError).toBe('error.checkEntries');
    expect(state.fields.number.error).toBe('field.number.invalid');
    expect(state.fields.expirationDate.error).toBe('field.expirationDate.empty');
    expect(state.fields.cvv.error).toBe('field.cvv.empty');
    expect(state.fields.postalCode.error).toBe('field.postalCode.empty');
    expect(state.fields.cardholderName.error).toBeNull();
    // Focus goes to the first field that needs fixing.
    expect(quiet(effects)).toEqual([
      { type: 'settleFields' },
      { type: 'focusField', field: 'number' },
      { type: 'rejectRequest', error: expect.objectContaining({ code: 'invalid_fields' }) },
    ]);
  });

  it("shows nothing of the frames' reports from before a Pay's sync while it waits (no message, no field focused), and the sync's outcome judges the card", () => {
    // As frames waiting for their card rules report: an empty field's focus and blur at once, the typing held back.
    const before = run(
      ready(),
      focus('cardholderName'),
      focus('number'),
      focus('expirationDate'),
      blur('expirationDate', EMPTY),
      focus('postalCode'),
      // The expiry typed in now ("3", "2", "9"): its focus is reported, its typing comes with the rules.
      focus('expirationDate'),
    ).state;
    expect(before.fields.expirationDate.error).toBe('field.expirationDate.empty');
    const busy = run(before, { type: 'SUBMIT' }).state;
    expect(busy.phase).toBe('submitting');
    for (const field of busy.visibleFields)
      expect(busy.fields[field]).toMatchObject({ error: null, state: { isFocused: false } });
    expect(busy.pendingEmptyBlur).toBeNull();

    // The rules arrive: what was typed is reported, each field's blur with it, then the sync's answers.
    const typed = busy.visibleFields.flatMap((field) => [input(field, VALID), blur(field, VALID)]);
    const paid = run(busy, { type: 'CARD_TYPE_CHANGED', cards: [visa] }, ...typed, SETTLED);
    expect(paid.state.visibleFields.map((field) => paid.state.fields[field].error)).toEqual([null, null, null, null, null]);
    expect(quiet(paid.effects)).toContainEqual(expect.objectContaining({ type: 'tokenize' }));
    // A field the rules then find empty or wrong gets its message from the outcome, not from before.
    const { state } = run(busy, input('number', VALID), blur('number', VALID), SETTLED);
    expect(state).toMatchObject({ phase: 'ready', sheetError: 'error.checkEntries' });
    expect(state.fields.expirationDate.error).toBe('field.expirationDate.empty');
    expect(state.fields.number.error).toBeNull();
  });

  it("leaves no empty field's blur pending under a Pay's sync: a focus the rules report then shows no message", () => {
    const left = run(ready(), focus('cvv'), blur('cvv', EMPTY)).state;
    expect(left.pendingEmptyBlur).toBe('cvv');
    const busy = run(left, input('number', INVALID), { type: 'SUBMIT' }).state;
    expect(busy.pendingEmptyBlur).toBeNull();
    const reported = run(busy, { type: 'FIELD_STATE', field: 'number', event: 'focus', state: INVALID }).state;
    expect(reported.fields.cvv.error).toBeNull();
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
    expect(quiet(done.effects)).toEqual([{ type: 'clearFields' }, { type: 'resolveRequest', result }, requestable(true)]);
    // Asked again, it returns the selected card; typing a new card deselects it.
    expect(run(done.state, { type: 'SUBMIT' }).effects).toEqual([{ type: 'resolveRequest', result }]);
    const retyped = run(done.state, input('number', { ...INVALID, isPotentiallyValid: true }));
    expect(retyped.state.selected).toBeNull();
    expect(quiet(retyped.effects)).toEqual([NOT_REQUESTABLE]);
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
    const rejected = run(ready(), { type: 'SUBMIT' }, SETTLED).state;
    expect(rejected.sheetError).toBe('error.checkEntries');
    expect(filled(rejected).sheetError).toBeNull();
  });

  it('clearSelectedPaymentMethod empties the form and the selection', () => {
    const done = run(filled(ready()), { type: 'SUBMIT' }, { type: 'TOKENIZED', result }).state;
    const cleared = run(done, { type: 'CLEAR_SELECTION' });
    expect(cleared.state.selected).toBeNull();
    expect(cleared.effects).toEqual([{ type: 'clearFields' }, NOT_REQUESTABLE]);
  });

  it("emptying a typed form: each field reports empty and its validity change once, as the provider's cleared fields do", () => {
    const kept = run(filled(ready(checkoutSettings())), { type: 'SUBMIT' }, { type: 'TOKENIZED', result }).state;
    const cleared = run(kept, { type: 'CLEAR_SELECTION' });
    const perField = kept.visibleFields.flatMap((field) => [
      { type: 'cardFieldEvent', name: 'empty', field },
      { type: 'cardFieldEvent', name: 'validityChange', field },
    ]);
    expect(cleared.effects).toEqual([...perField, { type: 'clearFields' }, NOT_REQUESTABLE]);
    expect(cleared.state.fields.number.state).toEqual(EMPTY);
    // The frames then report their emptied inputs: nothing changes, so no field reports again.
    expect(run(cleared.state, ...kept.visibleFields.map((field) => input(field, EMPTY))).effects).toEqual([]);
    // Cleared after tokenization (the provider's default) or after a failed 3-D Secure check: the same events.
    const afterTokenizing = run(filled(ready()), { type: 'SUBMIT' }, { type: 'TOKENIZED', result });
    expect(afterTokenizing.effects.filter((effect) => effect.type === 'cardFieldEvent')).toEqual(perField);
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
      const step = transition(state, event, ALL_PARTS);
      state = step.state;
      events.push(
        ...step.effects.filter(
          (e) => e.type === 'tell' && (e.event === 'paymentMethodRequestable' || e.event === 'noPaymentMethodRequestable'),
        ),
      );
    }
    expect(events).toEqual([requestable(false), NOT_REQUESTABLE]);
  });

  it('never fire before the form is ready', () => {
    const mounting = run(initialState(defaults), loaded());
    expect(quiet(run(mounting.state, input('number', VALID)).effects)).toEqual([]);
  });
});

describe('option list and views', () => {
  const wallets = { ...config, paypalEnabled: true };
  const mounting = (options: readonly PaymentOptionId[] = ['card', 'paypal']): CheckoutState =>
    run(initialState(defaults), loaded(wallets, options)).state;
  const listed = (): CheckoutState =>
    run(mounting(), { type: 'OPTION_READY', option: 'card' }, { type: 'OPTION_READY', option: 'paypal' }).state;

  it('opens the option list first when there are several options, once every option has settled', () => {
    const waiting = mounting();
    expect(waiting.view).toBe('options');
    const half = run(waiting, { type: 'OPTION_READY', option: 'paypal' });
    expect(half.state.phase).toBe('mounting');
    expect(half.effects).toEqual([]);
    const all = run(half.state, { type: 'OPTION_READY', option: 'card' });
    expect(all.state.phase).toBe('ready');
    expect(all.state.view).toBe('options');
    expect(all.effects).toEqual([{ type: 'announceReady' }]);
  });

  it('shows an option that failed to initialise as failed when another loaded, and does not open it', () => {
    const { state } = run(mounting(), { type: 'OPTION_FAILED', option: 'paypal' }, { type: 'OPTION_READY', option: 'card' });
    expect(state.phase).toBe('ready');
    expect(state.options).toEqual([
      { id: 'card', status: 'ready' },
      { id: 'paypal', status: 'failed' },
    ]);
    expect(run(state, { type: 'SELECT_OPTION', option: 'paypal' }).state.view).toBe('options');
  });

  it('fails with "All payment options failed to load." when every option failed, and a retry starts over', () => {
    const { state, effects } = run(
      mounting(),
      { type: 'OPTION_FAILED', option: 'card' },
      { type: 'OPTION_FAILED', option: 'paypal' },
    );
    expect(state.phase).toBe('error');
    expect(state.loadError).toMatchObject({ code: 'all_options_failed', messageKey: 'error.allOptionsFailed', retriable: true });
    expect(effects).toEqual([{ type: 'reportLoadError', error: state.loadError }]);
    const single = run(mounting(['card']), { type: 'OPTION_FAILED', option: 'card' }).state;
    expect(single.loadError?.code).toBe('all_options_failed');
    const retried = run(single, { type: 'RETRY' });
    expect(retried.state).toMatchObject({ phase: 'loading', options: [], view: null });
    expect(retried.effects).toEqual([{ type: 'loadConfiguration' }]);
  });

  it('opens a chosen option: paymentOptionSelected, changeActiveView, focus to its first control, no sheet error', () => {
    const complaining = { ...listed(), sheetError: 'error.choosePaymentOption' } as const;
    const { state, effects } = run(complaining, { type: 'SELECT_OPTION', option: 'card' });
    expect(state.view).toBe('card');
    expect(state.sheetError).toBeNull();
    expect(effects).toEqual([
      { type: 'tell', event: 'paymentOptionSelected', payload: { paymentOption: 'card' } },
      { type: 'tell', event: 'changeActiveView', payload: { previousViewId: 'options', newViewId: 'card' } },
      { type: 'focusView', view: 'card' },
    ]);
  });

  it('goes back to the list with the toggle; requestability follows the view', () => {
    const card = filled(run(listed(), { type: 'SELECT_OPTION', option: 'card' }).state);
    expect(card.requestability).toEqual({ requestable: true, paymentMethodIsSelected: false });
    const back = run({ ...card, sheetError: 'error.network' }, { type: 'SHOW_OPTIONS' });
    expect(back.state.view).toBe('options');
    expect(back.state.sheetError).toBeNull();
    expect(back.effects).toEqual([
      { type: 'tell', event: 'changeActiveView', payload: { previousViewId: 'card', newViewId: 'options' } },
      { type: 'focusView', view: 'options' },
      NOT_REQUESTABLE,
    ]);
    // The typed card is still there when the shopper comes back to it.
    const again = run(back.state, { type: 'SELECT_OPTION', option: 'card' });
    expect(again.effects).toContainEqual(requestable(false));
    expect(run(back.state, { type: 'SHOW_OPTIONS' }).effects).toEqual([]);
  });

  it('has no toggle with a single option', () => {
    expect(run(ready(), { type: 'SHOW_OPTIONS' })).toMatchObject({ effects: [], state: { view: 'card' } });
  });

  it('with saved methods, opens the methods view first and the toggle leads back to it', () => {
    const saved: CheckoutState = { ...initialState(defaults), savedMethods: [result] };
    const start = run(
      saved,
      loaded(wallets, ['card', 'paypal']),
      { type: 'OPTION_READY', option: 'card' },
      { type: 'OPTION_READY', option: 'paypal' },
    );
    expect(start.state.view).toBe('methods');
    const card = run(start.state, { type: 'SELECT_OPTION', option: 'card' }).state;
    expect(run(card, { type: 'SHOW_OPTIONS' }).state.view).toBe('methods');
    const onlyCard = run(saved, loaded(), { type: 'OPTION_READY', option: 'card' }).state;
    expect(onlyCard.view).toBe('methods');
  });

  it('asks to choose a way to pay when requested on the list, and to use the PayPal button on the PayPal view', () => {
    const onList = run(listed(), { type: 'SUBMIT' });
    expect(onList.state.sheetError).toBe('error.choosePaymentOption');
    expect(onList.effects).toEqual([{ type: 'rejectRequest', error: expect.objectContaining({ code: 'no_payment_method' }) }]);
    const onPaypal = run(listed(), { type: 'SELECT_OPTION', option: 'paypal' }, { type: 'SUBMIT' });
    expect(onPaypal.state.sheetError).toBe('error.usePayPalButton');
    expect(onPaypal.effects).toContainEqual({
      type: 'rejectRequest',
      error: expect.objectContaining({ code: 'use_wallet_button' }),
    });
  });
});

describe('provider failures while loading', () => {
  it('retries a rate-limited load by itself once Retry-After has passed, without a retry button', () => {
    const error = { code: 'rate_limited', messageKey: 'error.rateLimited', retriable: true, retryAfterMs: 3000 } as const;
    const failed = run(initialState(defaults), { type: 'CONFIG_FAILED', error });
    expect(failed.state.phase).toBe('error');
    expect(failed.effects).toEqual([{ type: 'scheduleRetry', afterMs: 3000 }]);
    expect(run(failed.state, { type: 'RETRY' }).state.phase).toBe('loading');
  });

  it('does not retry insufficient privileges', () => {
    const error = { code: 'insufficient_privileges', messageKey: 'error.insufficientPrivileges', retriable: false } as const;
    const failed = run(initialState(defaults), { type: 'CONFIG_FAILED', error });
    expect(failed.effects).toEqual([{ type: 'reportLoadError', error }]);
    expect(run(failed.state, { type: 'RETRY' }).state.phase).toBe('error');
  });
});

describe('focus after a failed payment request', () => {
  const submitting = (): CheckoutState => run(filled(ready()), { type: 'SUBMIT' }).state;

  it('goes to the message when there is nothing to fix in the form (network, time-out, rate limit)', () => {
    for (const code of ['network', 'timeout', 'rate_limited', 'gateway'] as const) {
      const { state, effects } = run(submitting(), { type: 'TOKENIZE_FAILED', failure: { code, message: '' } });
      expect(effects[0], code).toEqual({ type: 'focusAlert' });
      // The card stays typed: Pay again works without retyping.
      expect(state.fields.number.state.isValid, code).toBe(true);
      expect(state.requestability.requestable, code).toBe(true);
    }
    const limited = run(submitting(), {
      type: 'TOKENIZE_FAILED',
      failure: { code: 'rate_limited', message: '', retryAfterMs: 2000 },
    });
    expect(limited.state.sheetError).toBe('error.rateLimited');
    expect(limited.effects).toContainEqual({
      type: 'rejectRequest',
      error: expect.objectContaining({ code: 'rate_limited', retryAfterMs: 2000 }),
    });
  });

  it('goes to the first field the gateway refused', () => {
    const failure = { code: 'invalid_fields', message: '', fields: ['expirationDate', 'cvv'] } as const;
    expect(run(submitting(), { type: 'TOKENIZE_FAILED', failure }).effects[0]).toEqual({
      type: 'focusField',
      field: 'expirationDate',
    });
  });

  it('maps every provider failure to its own message', () => {
    const cases = [
      ['authorization', 'error.sessionExpired'],
      ['forbidden', 'error.insufficientPrivileges'],
      ['timeout', 'error.timeout'],
      ['verification_failed', 'error.cardVerificationFailed'],
      ['duplicate_card', 'error.cardAlreadySaved'],
      // A submit's module that did not download: only a reload loads it (NOT_DOWNLOADED).
      ['not_downloaded', 'error.invalidAuthorization'],
    ] as const;
    for (const [code, message] of cases) {
      expect(run(submitting(), { type: 'TOKENIZE_FAILED', failure: { code, message: '' } }).state.sheetError, code).toBe(message);
    }
  });
});

describe('card field events', () => {
  it('reports focus, blur, notEmpty/empty, validity changes and brand changes', () => {
    const names = (events: CheckoutEvent[]) =>
      run(ready(), ...events).effects.flatMap((e) => (e.type === 'cardFieldEvent' ? [`${e.name}:${e.field}`] : []));
    expect(names([focus('number')])).toEqual(['focus:number']);
    expect(names([input('number', { ...INVALID, isPotentiallyValid: true })])).toEqual(['notEmpty:number']);
    expect(names([input('number', INVALID)])).toEqual(['notEmpty:number', 'validityChange:number']);
    expect(names([input('cvv', VALID), input('cvv', EMPTY)])).toEqual([
      'notEmpty:cvv',
      'validityChange:cvv',
      'empty:cvv',
      'validityChange:cvv',
    ]);
    expect(names([{ type: 'CARD_TYPE_CHANGED', cards: [visa] }])).toEqual(['cardTypeChange:number']);
  });
});

describe('settings and teardown', () => {
  it('shows the postal code whenever the merchant requires it, whatever the gateway challenges', () => {
    const bare = { ...config, challenges: [] };
    expect(ready(defaults, bare).visibleFields).not.toContain('postalCode');
    expect(ready({ ...defaults, postalCode: 'required' }, bare).visibleFields).toContain('postalCode');
  });

  it('keeps the card after tokenization by default, and clears it after updateConfiguration asks to', () => {
    const kept = run(filled(ready(checkoutSettings())), { type: 'SUBMIT' }, { type: 'TOKENIZED', result });
    expect(kept.effects).not.toContainEqual({ type: 'clearFields' });
    const updated = run(filled(ready(checkoutSettings())), {
      type: 'UPDATE_SETTINGS',
      settings: { clearFieldsAfterTokenization: true },
    });
    expect(run(updated.state, { type: 'SUBMIT' }, { type: 'TOKENIZED', result }).effects).toContainEqual({ type: 'clearFields' });
  });

  it('closes on teardown: nothing requestable', () => {
    const closed = run(filled(ready()), { type: 'TEARDOWN' });
    expect(closed.state).toMatchObject({ phase: 'closed', view: null, requestability: { requestable: false } });
    expect(closed.effects).toEqual([NOT_REQUESTABLE]);
  });
});

describe('3-D Secure', () => {
  const secure = { ...defaults, clearFieldsAfterTokenization: false, threeDSecure: { amount: '12.00' } } as const;
  const enabled = { ...config, threeDSecureEnabled: true };
  const info = (status: string, liabilityShifted: boolean, liabilityShiftPossible: boolean) => ({
    ...result,
    nonce: 'tokencc_3ds',
    liabilityShifted,
    liabilityShiftPossible,
    threeDSecureInfo: { status, liabilityShifted, liabilityShiftPossible },
  });
  const authenticating = () => run(filled(ready(secure, enabled)), { type: 'SUBMIT' }, { type: 'TOKENIZED', result });

  it('runs for a tokenized card before the request resolves, only when the merchant AND the gateway turn it on', () => {
    const { state, effects } = authenticating();
    expect(state.phase).toBe('authenticating');
    expect(state.selected).toBeNull();
    expect(quiet(effects)).toContainEqual({ type: 'verifyThreeDSecure', card: result });
    expect(quiet(effects)).not.toContainEqual(expect.objectContaining({ type: 'resolveRequest' }));
    for (const [settings, gateway] of [
      [secure, config],
      [defaults, enabled],
    ] as const) {
      const plain = run(filled(ready(settings, gateway)), { type: 'SUBMIT' }, { type: 'TOKENIZED', result });
      expect(plain.state.phase).toBe('ready');
      expect(plain.effects).toContainEqual({ type: 'resolveRequest', result });
    }
  });

  it('hands over the verified card when the liability shifted or 3-D Secure does not apply to the card', () => {
    for (const verified of [
      info('authenticate_successful', true, true),
      info('authenticate_attempt_successful', true, true),
      info('authentication_unavailable', false, false),
      info('lookup_not_enrolled', false, false),
    ]) {
      const done = run(authenticating().state, { type: 'THREE_D_SECURE_RESULT', result: verified });
      expect(done.state.phase).toBe('ready');
      expect(done.state.selected).toEqual(verified);
      expect(done.effects).toContainEqual({ type: 'resolveRequest', result: verified });
      // Asked again, the verified card is returned without a second 3-D Secure.
      expect(run(done.state, { type: 'SUBMIT' }).effects).toEqual([{ type: 'resolveRequest', result: verified }]);
    }
  });

  it('clears the card, shows the message, moves focus to it, rejects and says nothing is requestable after a failure', () => {
    const failures: CheckoutEvent[] = [
      { type: 'THREE_D_SECURE_RESULT', result: info('authenticate_frictionless_failed', false, true) },
      { type: 'THREE_D_SECURE_RESULT', result: info('authenticate_failed', false, true) },
      { type: 'THREE_D_SECURE_RESULT', result: info('lookup_error', false, false) },
      { type: 'THREE_D_SECURE_FAILED' },
    ];
    for (const failure of failures) {
      const before = authenticating().state;
      expect(before.requestability).toEqual({ requestable: true, paymentMethodIsSelected: false });
      const { state, effects } = run(before, failure);
      expect(state.phase).toBe('ready');
      expect(state.selected).toBeNull();
      expect(state.sheetError).toBe('error.threeDSecureFailed');
      expect(state.fields.number.state.isEmpty).toBe(true);
      expect(quiet(effects)).toEqual([
        { type: 'focusAlert' },
        { type: 'rejectRequest', error: expect.objectContaining({ code: 'three_d_secure_failed' }) },
        { type: 'clearFields' },
        NOT_REQUESTABLE,
      ]);
    }
  });

  it("shows a challenge in the modal frame, closes it with its events, and treats a cancel as the shopper's choice", () => {
    const challenged = run(authenticating().state, {
      type: 'THREE_D_SECURE_CHALLENGE',
      url: 'http://127.0.0.1:8090/three-d-secure/challenge.html#x',
    });
    expect(challenged.state.challengeUrl).toBe('http://127.0.0.1:8090/three-d-secure/challenge.html#x');
    expect(challenged.effects).toEqual([{ type: 'tell', event: 'threeDSecure:authentication-modal-render', payload: undefined }]);
    expect(run(challenged.state, { type: 'SUBMIT' }).effects).toEqual([
      { type: 'rejectRequest', error: expect.objectContaining({ code: 'request_in_progress' }) },
    ]);

    const passed = run(challenged.state, { type: 'THREE_D_SECURE_RESULT', result: info('authenticate_successful', true, true) });
    expect(passed.state.challengeUrl).toBeNull();
    expect(passed.effects[0]).toEqual({ type: 'tell', event: 'threeDSecure:authentication-modal-close', payload: undefined });

    const canceled = run(challenged.state, { type: 'THREE_D_SECURE_CANCELED' });
    expect(canceled.state).toMatchObject({ phase: 'ready', challengeUrl: null, selected: null, sheetError: null });
    expect(canceled.state.fields.number.state.isValid).toBe(true);
    expect(canceled.effects).toEqual([
      { type: 'tell', event: 'threeDSecure:authentication-modal-close', payload: undefined },
      { type: 'tell', event: 'threeDSecure:customer-canceled', payload: undefined },
      { type: 'rejectRequest', error: expect.objectContaining({ code: 'three_d_secure_canceled' }) },
    ]);
    // Pay again runs 3-D Secure again.
    const again = run(canceled.state, { type: 'SUBMIT' }, { type: 'TOKENIZED', result });
    expect(again.state.phase).toBe('authenticating');
  });

  it('verifies a chosen saved card too: it stays chosen with its new nonce, and a failure unchooses it', () => {
    const saved = { ...result, nonce: 'saved-1', vaulted: true };
    const loadedSaved: CheckoutEvent = { type: 'CONFIG_LOADED', config: enabled, options: ['card'], savedMethods: [saved] };
    const listed = run(initialState(secure), loadedSaved, { type: 'OPTION_READY', option: 'card' }).state;
    const asked = run(listed, { type: 'SUBMIT' });
    expect(asked.state.phase).toBe('authenticating');
    expect(asked.effects).toContainEqual({ type: 'verifyThreeDSecure', card: saved });

    const verified = { ...info('authenticate_successful', true, true), vaulted: true };
    const done = run(asked.state, { type: 'THREE_D_SECURE_RESULT', result: verified });
    expect(done.state).toMatchObject({ phase: 'ready', view: 'methods', activeMethod: verified, savedMethods: [verified] });
    expect(done.effects).toContainEqual({ type: 'resolveRequest', result: verified });

    const failed = run(asked.state, { type: 'THREE_D_SECURE_FAILED' });
    expect(failed.state).toMatchObject({ activeMethod: null, sheetError: 'error.threeDSecureFailed' });
    expect(failed.effects).toContainEqual(NOT_REQUESTABLE);
  });

  it('closes the challenge on teardown', () => {
    const challenged = run(authenticating().state, { type: 'THREE_D_SECURE_CHALLENGE', url: 'http://127.0.0.1:8090/c' }).state;
    expect(run(challenged, { type: 'TEARDOWN' }).state).toMatchObject({ phase: 'closed', challengeUrl: null });
  });
});

describe('wallets', () => {
  const wallets = { ...config, paypalEnabled: true };
  const paypal = {
    ...result,
    nonce: 'paypal-1',
    type: 'PayPalAccount' as const,
    details: { ...result.details, email: 'shopper@paypal.example' },
  };
  const onPayPal = () => {
    const loadedBoth = run(
      initialState(defaults),
      loaded(wallets, ['card', 'paypal']),
      { type: 'OPTION_READY', option: 'card' },
      { type: 'OPTION_READY', option: 'paypal' },
    );
    return run(loadedBoth.state, { type: 'SELECT_OPTION', option: 'paypal' }).state;
  };

  it("asks for the wallet's button until it approved, then hands over its method, requestable on its view only", () => {
    const view = onPayPal();
    expect(run(view, { type: 'SUBMIT' }).effects).toEqual([
      { type: 'rejectRequest', error: expect.objectContaining({ code: 'use_wallet_button' }) },
    ]);
    const approved = run(view, { type: 'WALLET_APPROVED', option: 'paypal', result: paypal });
    expect(approved.state.walletMethod).toEqual(paypal);
    expect(approved.effects).toEqual([requestable(true, paypal.type)]);
    expect(run(approved.state, { type: 'SUBMIT' }).effects).toEqual([{ type: 'resolveRequest', result: paypal }]);
    // On the card view the wallet's method is not what Pay hands over.
    const card = run(approved.state, { type: 'SHOW_OPTIONS' }, { type: 'SELECT_OPTION', option: 'card' });
    expect(card.state.requestability).toEqual({ requestable: false });
    expect(run(approved.state, { type: 'CLEAR_SELECTION' }).state.walletMethod).toBeNull();
  });

  it('forgets the approval when the shopper leaves the view, and ignores one that ends after they left', () => {
    const view = onPayPal();
    const approved = run(view, { type: 'WALLET_APPROVED', option: 'paypal', result: paypal }).state;
    const back = run(approved, { type: 'SHOW_OPTIONS' }, { type: 'SELECT_OPTION', option: 'paypal' });
    expect(back.state.walletMethod).toBeNull();
    expect(back.state.requestability).toEqual({ requestable: false });
    const late = run(run(view, { type: 'SHOW_OPTIONS' }).state, { type: 'WALLET_APPROVED', option: 'paypal', result: paypal });
    expect(late.state.walletMethod).toBeNull();
    expect(late.effects).toEqual([]);
  });
});

describe('parts loaded on demand', () => {
  const secure = { ...defaults, threeDSecure: { amount: '12.00' } } as const;
  const enabled = { ...config, threeDSecureEnabled: true };

  it("skips a part's transitions until the part is installed, then takes them", () => {
    const machine = createCheckoutMachine(secure);
    // The runtime installs the payment's part before it passes a submit on.
    machine.install(paymentPart);
    machine.send(loaded(enabled));
    machine.send({ type: 'OPTION_READY', option: 'card' });
    machine.send({ type: 'CARD_TYPE_CHANGED', cards: [visa] });
    for (const field of machine.getState().visibleFields) machine.send(input(field, VALID));
    machine.send({ type: 'SUBMIT' });
    // Without 3-D Secure's part the tokenized card is handed over: 3-D Secure's guard is not there to say otherwise.
    const core = transition(machine.getState(), { type: 'TOKENIZED', result }, withParts(paymentPart));
    expect(core.state.phase).toBe('ready');
    expect(core.effects).toContainEqual({ type: 'resolveRequest', result });

    machine.install(threeDSecurePart);
    expect(machine.send({ type: 'TOKENIZED', result })).toContainEqual({ type: 'verifyThreeDSecure', card: result });
    expect(machine.getState().phase).toBe('authenticating');
  });

  it("tries a part's transitions after those of the parts installed before it, the payment's after every other part's, once", () => {
    const guards = (rules: MachineRules) => rules.transitions.ready.SUBMIT?.map((candidate) => candidate.guard);
    const all = withParts(threeDSecurePart, savedMethodsPart, paymentPart);
    expect(guards(all)).toEqual([
      'needsThreeDSecure',
      'hasActiveMethod',
      'onMethodsView',
      'onOptionsView',
      'hasSelection',
      'formValid',
      undefined,
    ]);
    // The payment's part arrives once the checkout is ready: before a part a retried load installs, its transitions
    // still come last.
    const paymentFirst = withParts(paymentPart, threeDSecurePart, savedMethodsPart, threeDSecurePart);
    expect(paymentFirst.transitions).toEqual(all.transitions);
    expect(guards(CORE)).toBeUndefined();
  });

  it('ignores the events of a part not installed (an unguarded transition whose actions are missing too)', () => {
    const listed = run(
      initialState(defaults),
      { type: 'CONFIG_LOADED', config, options: ['card'], savedMethods: [{ ...result, vaulted: true }] },
      { type: 'OPTION_READY', option: 'card' },
    ).state;
    expect(listed).toMatchObject({ phase: 'ready', view: 'methods' });
    for (const event of [{ type: 'EDIT_METHODS' }, { type: 'DONE_EDITING' }, { type: 'SET_SAVE_CARD', save: false }] as const)
      expect(transition(listed, event)).toEqual({ state: listed, effects: [] });
    expect(transition(listed, { type: 'SET_SAVE_CARD', save: false }, withParts(savedMethodsPart)).state.saveCard).toBe(false);
  });
});

// Each transition of the table that the flows above do not reach, so that breaking any transition (dropping it, its
// target or one of its actions) fails a test. Found by removing each in turn and running these tests.
describe('every phase', () => {
  const network = { code: 'network', messageKey: 'error.network', retriable: true } as const;
  const secure = { ...defaults, threeDSecure: { amount: '12.00' } } as const;
  const enabled = { ...config, threeDSecureEnabled: true };
  const challenged = (): CheckoutState =>
    run(
      filled(ready(secure, enabled)),
      { type: 'SUBMIT' },
      { type: 'TOKENIZED', result },
      { type: 'THREE_D_SECURE_CHALLENGE', url: 'http://127.0.0.1:8090/c' },
    ).state;
  const phases: Record<Exclude<CheckoutState['phase'], 'closed'>, () => CheckoutState> = {
    loading: () => initialState(defaults),
    mounting: () => run(initialState(defaults), loaded()).state,
    ready: () => filled(ready()),
    submitting: () => run(filled(ready()), { type: 'SUBMIT' }).state,
    authenticating: challenged,
    error: () => run(initialState(defaults), { type: 'CONFIG_FAILED', error: network }).state,
  };
  const notReady = [{ type: 'rejectRequest', error: expect.objectContaining({ code: 'not_ready' }) }];

  it.each(Object.entries(phases))('TEARDOWN while %s closes: no view, nothing shown or chosen or requestable', (_, reach) => {
    const { state } = run(reach(), { type: 'TEARDOWN' });
    expect(state).toMatchObject({
      phase: 'closed',
      view: null,
      sheetError: null,
      selected: null,
      challengeUrl: null,
      requestability: { requestable: false },
    });
  });

  it.each(['loading', 'mounting', 'error'] as const)(
    'a request while %s is refused as not ready, and changes nothing',
    (phase) => {
      const before = phases[phase]();
      expect(run(before, { type: 'SUBMIT' })).toEqual({ state: before, effects: notReady });
    },
  );

  // The frames answer on their own: one may be typed in while the others load, or while the card is sent or verified.
  it.each(['mounting', 'ready', 'submitting', 'authenticating'] as const)(
    'while %s, the fields follow the frames: typing, brands, and an empty field left for nothing',
    (phase) => {
      const typed = run(phases[phase](), input('number', INVALID), { type: 'CARD_TYPE_CHANGED', cards: [amex] });
      expect(typed.state.fields.number.state).toEqual(INVALID);
      expect(typed.state.cards).toEqual([amex]);
      expect(typed.effects).toContainEqual({ type: 'cardFieldEvent', name: 'validityChange', field: 'number' });
      expect(typed.effects).toContainEqual({ type: 'cardFieldEvent', name: 'cardTypeChange', field: 'number' });

      const left = run(typed.state, input('cvv', EMPTY), focus('cvv'), blur('cvv', EMPTY));
      expect(left.state.pendingEmptyBlur).toBe('cvv');
      expect(left.effects).toContainEqual({ type: 'scheduleBlurSettle', field: 'cvv' });
      expect(run(left.state, { type: 'BLUR_SETTLED', field: 'cvv' }).state.pendingEmptyBlur).toBeNull();
    },
  );

  it('takes updateConfiguration() while the card is sent, and while 3-D Secure verifies it: the new setting decides', () => {
    const clear = { type: 'UPDATE_SETTINGS', settings: { clearFieldsAfterTokenization: true } } as const;
    const sending = run(filled(ready(checkoutSettings())), { type: 'SUBMIT' }, clear);
    expect(sending.state.settings.clearFieldsAfterTokenization).toBe(true);
    expect(run(sending.state, { type: 'TOKENIZED', result }).effects).toContainEqual({ type: 'clearFields' });

    const keeping = { ...secure, clearFieldsAfterTokenization: false };
    const verifying = run(filled(ready(keeping, enabled)), { type: 'SUBMIT' }, { type: 'TOKENIZED', result }, clear);
    expect(verifying.state).toMatchObject({ phase: 'authenticating', settings: { clearFieldsAfterTokenization: true } });
    const verified = { ...result, liabilityShifted: true, liabilityShiftPossible: true };
    expect(run(verifying.state, { type: 'THREE_D_SECURE_RESULT', result: verified }).effects).toContainEqual({
      type: 'clearFields',
    });
  });

  it('closes the challenge when 3-D Secure fails: a failed result, or no result', () => {
    const failed = { ...result, liabilityShifted: false, liabilityShiftPossible: true };
    for (const failure of [{ type: 'THREE_D_SECURE_RESULT', result: failed }, { type: 'THREE_D_SECURE_FAILED' }] as const) {
      const { state, effects } = run(challenged(), failure);
      expect(state).toMatchObject({ phase: 'ready', challengeUrl: null, sheetError: 'error.threeDSecureFailed' });
      expect(effects[0]).toEqual({ type: 'tell', event: 'threeDSecure:authentication-modal-close', payload: undefined });
    }
  });

  it('is ready, and says so, when the last option to settle failed and another loaded; a failed option is marked', () => {
    const wallets = { ...config, paypalEnabled: true };
    const mounting = run(initialState(defaults), loaded(wallets, ['card', 'paypal'])).state;
    const { state, effects } = run(
      mounting,
      { type: 'OPTION_READY', option: 'card' },
      { type: 'OPTION_FAILED', option: 'paypal' },
    );
    expect(state).toMatchObject({ phase: 'ready', view: 'options' });
    expect(state.options).toEqual([
      { id: 'card', status: 'ready' },
      { id: 'paypal', status: 'failed' },
    ]);
    expect(effects).toEqual([{ type: 'announceReady' }]);

    const allFailed = run(mounting, { type: 'OPTION_FAILED', option: 'card' }, { type: 'OPTION_FAILED', option: 'paypal' });
    expect(allFailed.state.options).toEqual([
      { id: 'card', status: 'failed' },
      { id: 'paypal', status: 'failed' },
    ]);
  });
});
