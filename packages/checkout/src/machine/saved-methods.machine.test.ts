// The saved methods in the view machine: first view and preselection, choosing, paying without typing, edit mode,
// the delete confirmation and its outcomes, "Save card" and a card saved on the way.
import { describe, expect, it } from 'vitest';
import { initialState, transition } from './checkout.machine.ts';
import type { CheckoutEffect, CheckoutEvent, CheckoutSettings, CheckoutState, PaymentMethodResult } from './checkout.types.ts';
import { VALID, checkoutSettings, gatewayConfiguration, savedMethod } from '../testing/fixtures.ts';
import { ALL_PARTS, NOT_REQUESTABLE, requestable } from '../testing/machine.ts';

const config = gatewayConfiguration({ challenges: [], supportedCardTypes: ['Visa', 'MasterCard'] });
const visa = savedMethod({
  nonce: 'n-visa',
  details: { ...savedMethod({ nonce: 'x' }).details, cardType: 'Visa', lastFour: '1881' },
});
const mastercard = savedMethod({
  nonce: 'n-mc',
  default: true,
  details: { ...visa.details, cardType: 'MasterCard', lastFour: '4444' },
});
const subscribed = savedMethod({ nonce: 'n-sub', hasSubscription: true, details: { ...visa.details, lastFour: '0005' } });

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

function withSaved(methods: readonly PaymentMethodResult[], settings: Partial<CheckoutSettings> = {}): CheckoutState {
  const loaded: CheckoutEvent = { type: 'CONFIG_LOADED', config, options: ['card'], savedMethods: methods };
  return run(initialState(checkoutSettings({ vaultManager: true, ...settings })), loaded, {
    type: 'OPTION_READY',
    option: 'card',
  }).state;
}

const submit: CheckoutEvent = { type: 'SUBMIT' };

describe('saved methods: first view and choosing', () => {
  it('opens the saved methods with the default one chosen, requestable as a selected method', () => {
    const { state, effects } = run(
      initialState(checkoutSettings()),
      { type: 'CONFIG_LOADED', config, options: ['card'], savedMethods: [visa, mastercard] },
      { type: 'OPTION_READY', option: 'card' },
    );
    expect(state.view).toBe('methods');
    expect(state.activeMethod?.nonce).toBe('n-mc');
    expect(effects).toContainEqual(requestable(true));
  });

  it('chooses nothing when the merchant turns preselection off, and the first method when none is the default', () => {
    expect(withSaved([visa, mastercard], { preselectVaultedPaymentMethod: false }).activeMethod).toBeNull();
    expect(withSaved([visa, subscribed]).activeMethod?.nonce).toBe('n-visa');
  });

  it('opens the card form as before for a shopper with no saved method', () => {
    expect(withSaved([]).view).toBe('card');
  });

  it('pays with the chosen saved method without typing: SUBMIT resolves with it', () => {
    const { effects } = run(withSaved([visa, mastercard]), { type: 'SELECT_METHOD', nonce: 'n-visa' }, submit);
    expect(effects).toContainEqual({ type: 'resolveRequest', result: visa });
  });

  it('refuses to pay when no saved method is chosen, and becomes requestable once one is', () => {
    const start = withSaved([visa], { preselectVaultedPaymentMethod: false });
    const refused = run(start, submit);
    expect(refused.effects).toContainEqual({
      type: 'rejectRequest',
      error: expect.objectContaining({ code: 'no_payment_method' }),
    });
    const chosen = run(start, { type: 'SELECT_METHOD', nonce: 'n-visa' });
    expect(chosen.state.activeMethod).toBe(visa);
    expect(chosen.effects).toContainEqual(requestable(true));
  });

  it('ignores a nonce that is not listed', () => {
    const start = withSaved([visa], { preselectVaultedPaymentMethod: false });
    expect(run(start, { type: 'SELECT_METHOD', nonce: 'n-unknown' }).state.activeMethod).toBeNull();
  });

  it('goes from the saved methods to the card and back with the toggle, keeping the chosen method', () => {
    const onCard = run(withSaved([visa]), { type: 'SELECT_OPTION', option: 'card' });
    expect(onCard.state.view).toBe('card');
    const back = run(onCard.state, { type: 'SHOW_OPTIONS' });
    expect(back.state.view).toBe('methods');
    expect(back.state.activeMethod).toBe(visa);
  });

  it("tells of a card typed on the card view as a card, though a saved wallet stays chosen on the saved methods' view", () => {
    const paypal = savedMethod({ nonce: 'n-pp', type: 'PayPalAccount' });
    const chosen = run(initialState(checkoutSettings()), {
      type: 'CONFIG_LOADED',
      config,
      options: ['card'],
      savedMethods: [paypal],
    });
    expect(chosen.effects).toContainEqual(requestable(true, 'PayPalAccount'));
    const typed = run(
      chosen.state,
      { type: 'OPTION_READY', option: 'card' },
      { type: 'SELECT_OPTION', option: 'card' },
      ...(['number', 'expirationDate'] as const).map(
        (field): CheckoutEvent => ({ type: 'FIELD_STATE', field, event: 'input', state: VALID }),
      ),
    );
    expect(typed.state).toMatchObject({ view: 'card', activeMethod: paypal });
    expect(typed.effects).toContainEqual(requestable(false));
  });
});

describe('saved methods: edit mode and deletion', () => {
  it('enters edit mode only with the vault manager; nothing is requestable while editing', () => {
    expect(run(withSaved([visa], { vaultManager: false }), { type: 'EDIT_METHODS' }).state.editing).toBe(false);
    const { state, effects } = run(withSaved([visa]), { type: 'EDIT_METHODS' });
    expect(state.editing).toBe(true);
    expect(effects).toContainEqual(NOT_REQUESTABLE);
    expect(run(state, submit).effects).toContainEqual({
      type: 'rejectRequest',
      error: expect.objectContaining({ code: 'no_payment_method' }),
    });
    expect(run(state, { type: 'SELECT_METHOD', nonce: 'n-visa' }).state).toBe(state);
  });

  it('asks before deleting and goes back to edit mode on Cancel, the method kept', () => {
    const editing = run(withSaved([visa, mastercard]), { type: 'EDIT_METHODS' }).state;
    const asked = run(editing, { type: 'ASK_DELETE', nonce: 'n-visa' });
    expect(asked.state.view).toBe('delete-confirmation');
    expect(asked.state.pendingDelete).toBe(visa);
    expect(asked.effects).toContainEqual({
      type: 'tell',
      event: 'changeActiveView',
      payload: { previousViewId: 'methods', newViewId: 'delete-confirmation' },
    });
    const canceled = run(asked.state, { type: 'CANCEL_DELETE' }).state;
    expect(canceled.view).toBe('methods');
    expect(canceled.editing).toBe(true);
    expect(canceled.savedMethods).toEqual([visa, mastercard]);
  });

  it('deletes nothing on a Delete that nothing asked for (before the question, or after Cancel)', () => {
    const editing = run(withSaved([visa, mastercard]), { type: 'EDIT_METHODS' }).state;
    expect(run(editing, { type: 'CONFIRM_DELETE' })).toEqual({ state: editing, effects: [] });
    const canceled = run(editing, { type: 'ASK_DELETE', nonce: 'n-visa' }, { type: 'CANCEL_DELETE' }).state;
    expect(run(canceled, { type: 'CONFIRM_DELETE' })).toEqual({ state: canceled, effects: [] });
  });

  it('never asks to delete a method with a subscription, nor outside edit mode', () => {
    const editing = run(withSaved([visa, subscribed]), { type: 'EDIT_METHODS' }).state;
    expect(run(editing, { type: 'ASK_DELETE', nonce: 'n-sub' }).state.view).toBe('methods');
    expect(run(withSaved([visa]), { type: 'ASK_DELETE', nonce: 'n-visa' }).state.view).toBe('methods');
  });

  it('deletes on Delete: asks the host, then shows the list fetched again and leaves edit mode', () => {
    const asked = run(withSaved([visa, mastercard]), { type: 'EDIT_METHODS' }, { type: 'ASK_DELETE', nonce: 'n-mc' }).state;
    const confirmed = run(asked, { type: 'CONFIRM_DELETE' });
    expect(confirmed.state.phase).toBe('submitting');
    expect(confirmed.effects).toContainEqual({ type: 'deleteMethod', nonce: 'n-mc' });
    const done = run(confirmed.state, { type: 'METHOD_DELETED', methods: [visa] }).state;
    expect(done).toMatchObject({ phase: 'ready', view: 'methods', editing: false, pendingDelete: null, savedMethods: [visa] });
    // The deleted method was the chosen one: the remaining default-or-first is chosen instead.
    expect(done.activeMethod).toBe(visa);
  });

  it('opens the card form once the last saved method is deleted', () => {
    const asked = run(
      withSaved([visa]),
      { type: 'EDIT_METHODS' },
      { type: 'ASK_DELETE', nonce: 'n-visa' },
      { type: 'CONFIRM_DELETE' },
    ).state;
    const done = run(asked, { type: 'METHOD_DELETED', methods: [] }).state;
    expect(done.view).toBe('card');
    expect(done.activeMethod).toBeNull();
  });

  it('keeps the method and shows "Unable to delete payment method, try again." in edit mode when the deletion fails', () => {
    const asked = run(
      withSaved([visa, mastercard]),
      { type: 'EDIT_METHODS' },
      { type: 'ASK_DELETE', nonce: 'n-visa' },
      { type: 'CONFIRM_DELETE' },
    ).state;
    const failed = run(asked, { type: 'DELETE_FAILED' }).state;
    expect(failed).toMatchObject({
      phase: 'ready',
      view: 'methods',
      editing: true,
      sheetError: 'error.deleteFailed',
      pendingDelete: null,
    });
    expect(failed.savedMethods).toEqual([visa, mastercard]);
  });

  it('leaves edit mode with Done', () => {
    const editing = run(withSaved([visa]), { type: 'EDIT_METHODS' }).state;
    const done = run(editing, { type: 'DONE_EDITING' });
    expect(done.state.editing).toBe(false);
    expect(done.effects).toContainEqual(requestable(true));
  });
});

describe('"Save card"', () => {
  const typed = (state: CheckoutState): CheckoutState =>
    run(
      state,
      ...(['number', 'expirationDate'] as const).map(
        (field): CheckoutEvent => ({ type: 'FIELD_STATE', field, event: 'input', state: VALID }),
      ),
    ).state;

  it('asks to vault the card when the merchant offers saving and the box stays checked (the default)', () => {
    const state = typed(withSaved([], { vaultCard: true }));
    expect(state.saveCard).toBe(true);
    expect(run(state, submit).effects).toContainEqual({ type: 'tokenize', fields: ['number', 'expirationDate'], vault: true });
    const unchecked = run(state, { type: 'SET_SAVE_CARD', save: false }, submit);
    expect(unchecked.effects).toContainEqual({ type: 'tokenize', fields: ['number', 'expirationDate'], vault: false });
  });

  it('a card tokenized to be saved is kept for Pay again, and tokenized anew to pay without saving once the box is unchecked', () => {
    const submitting = run(typed(withSaved([], { vaultCard: true })), submit).state;
    const toSave: PaymentMethodResult = { ...savedMethod({ nonce: 'n-typed' }), vaulted: false, vaultRequested: true };
    const selected = run(submitting, { type: 'TOKENIZED', result: toSave }).state;
    // The shop's page refused the save (a limit, the bot-check): Pay again sends the same card and save.
    expect(run(selected, submit).effects).toContainEqual({ type: 'resolveRequest', result: toSave });
    const unchecked = run(selected, { type: 'SET_SAVE_CARD', save: false }, submit);
    expect(unchecked.effects).toContainEqual({ type: 'tokenize', fields: ['number', 'expirationDate'], vault: false });
  });

  it('never vaults when the merchant does not offer saving (guests)', () => {
    expect(run(typed(withSaved([])), submit).effects).toContainEqual({
      type: 'tokenize',
      fields: ['number', 'expirationDate'],
      vault: false,
    });
  });

  it('puts a card saved on the way on top of the list, chosen, shows the list and resolves with vaulted: true', () => {
    const submitting = run(
      typed(run(withSaved([mastercard], { vaultCard: true }), { type: 'SELECT_OPTION', option: 'card' }).state),
      submit,
    ).state;
    const saved = savedMethod({ nonce: 'n-new', details: { ...visa.details, lastFour: '1111' } });
    const { state, effects } = run(submitting, { type: 'TOKENIZED', result: saved });
    expect(state.view).toBe('methods');
    expect(state.savedMethods.map((m) => m.nonce)).toEqual(['n-new', 'n-mc']);
    expect(state.activeMethod).toBe(saved);
    expect(effects).toContainEqual({ type: 'clearFields' });
    expect(effects).toContainEqual({ type: 'resolveRequest', result: saved });
  });

  it('shows the duplicate and the verification messages of the specification', () => {
    const submitting = run(typed(withSaved([], { vaultCard: true })), submit).state;
    const duplicate = run(submitting, {
      type: 'TOKENIZE_FAILED',
      failure: { code: 'duplicate_payment_method', message: 'saved' },
    });
    expect(duplicate.state.sheetError).toBe('error.cardAlreadySaved');
    expect(duplicate.effects).toContainEqual({
      type: 'rejectRequest',
      error: expect.objectContaining({ code: 'duplicate_payment_method' }),
    });
    const failed = run(submitting, { type: 'TOKENIZE_FAILED', failure: { code: 'verification_failed', message: 'declined' } });
    expect(failed.state.sheetError).toBe('error.cardVerificationFailed');
  });
});
