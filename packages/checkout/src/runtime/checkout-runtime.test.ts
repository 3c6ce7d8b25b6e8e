import { describe, expect, it, vi } from 'vitest';
import type { HostedFields, HostedFieldsOptions, TokenizeOutcome } from '../fields/hosted-fields.ts';
import type { ConfigurePayload } from '../fields/protocol.ts';
import { createTranslator } from '../i18n/i18n.ts';
import type { FieldName, GatewayConfiguration } from '../machine/checkout.types.ts';
import { ProviderError, type ProviderClient } from '../provider/provider.ts';
import { CheckoutError } from './checkout-error.ts';
import { CheckoutRuntime, type CheckoutCallbacks } from './checkout-runtime.ts';
import { VALID, gatewayConfiguration, paymentMethodResult as result } from '../testing/fixtures.ts';

const config = gatewayConfiguration({ challenges: ['cvv'], supportedCardTypes: ['Visa', 'American Express'] });

/** A provider whose answers the test releases by hand; the frames are a recorder. */
function harness(callbacks: CheckoutCallbacks = {}) {
  let answerConfig: (outcome: GatewayConfiguration | Error) => void = () => {};
  let answerTokenize: (outcome: TokenizeOutcome) => void = () => {};
  let frameOptions: Omit<HostedFieldsOptions, 'assetsUrl'> | null = null;
  const configures = new Map<FieldName, ConfigurePayload>();
  const log: string[] = [];
  const fields: HostedFields = {
    channel: 'test',
    configure: (field, payload) => configures.set(field, payload),
    setCvvSize: (size) => log.push(`setCvvSize ${String(size)}`),
    focus: (field) => log.push(`focus ${field}`),
    clear: () => log.push('clear'),
    tokenize: () => Promise.reject(new Error('the provider tokenizes')),
    teardown: () => log.push('teardown'),
  };
  const provider: ProviderClient = {
    getConfiguration: () =>
      new Promise((resolve, reject) => {
        answerConfig = (outcome) => (outcome instanceof Error ? reject(outcome) : resolve(outcome));
      }),
    createHostedFields: (_, options) => {
      frameOptions = options;
      return fields;
    },
    tokenize: (_, __, names) => {
      log.push(`tokenize ${names.join(',')}`);
      return new Promise((resolve) => {
        answerTokenize = resolve;
      });
    },
  };
  const runtime = new CheckoutRuntime({
    authorization: 'unused with an injected provider',
    settings: { cardholderName: false, clearFieldsAfterTokenization: true },
    translate: createTranslator('en'),
    callbacks: () => callbacks,
    provider,
    blurSettleMs: 5,
  });
  const frame = (field: FieldName, message: Parameters<HostedFieldsOptions['onMessage']>[1]): void => {
    if (frameOptions === null) throw new Error('frames not mounted');
    frameOptions.onMessage(field, message);
  };
  const mount = (): (() => void) =>
    runtime.mountFields(
      runtime.getState().visibleFields.map((field) => ({ field, container: {} as HTMLElement, describedBy: `${field}-error` })),
    );
  const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));
  return {
    runtime,
    log,
    configures,
    frame,
    mount,
    settle,
    answerConfig: (outcome: GatewayConfiguration | Error) => answerConfig(outcome),
    answerTokenize: (outcome: TokenizeOutcome) => answerTokenize(outcome),
  };
}

async function readyHarness(callbacks: CheckoutCallbacks = {}) {
  const h = harness(callbacks);
  h.runtime.start();
  await h.settle();
  h.answerConfig(config);
  await h.settle();
  h.mount();
  for (const field of h.runtime.getState().visibleFields) h.frame(field, { type: 'ready', field });
  return h;
}

describe('CheckoutRuntime', () => {
  it('loads, mounts the frames, configures them and announces readiness once every frame is ready', async () => {
    const onReady = vi.fn();
    const h = harness({ onReady });
    h.runtime.start();
    await h.settle();
    expect(h.runtime.getState().phase).toBe('loading');
    h.answerConfig(config);
    await h.settle();
    expect(h.runtime.getState().phase).toBe('mounting');
    h.mount();
    expect(h.configures.get('number')).toEqual({ label: 'Card number', placeholder: '1234 5678 9012 3456', required: true, invalid: false });
    h.frame('number', { type: 'ready', field: 'number' });
    expect(onReady).not.toHaveBeenCalled();
    h.frame('expirationDate', { type: 'ready', field: 'expirationDate' });
    h.frame('cvv', { type: 'ready', field: 'cvv' });
    expect(h.runtime.getState().phase).toBe('ready');
    expect(onReady).toHaveBeenCalledWith(h.runtime.instance);
    expect(h.runtime.instance.getAvailablePaymentOptions()).toEqual(['card']);
  });

  it('tells the frames about messages and the CVV length', async () => {
    const h = await readyHarness();
    h.frame('number', { type: 'cardTypeChange', cards: [{ type: 'american-express', niceType: 'American Express', code: { name: 'CID', size: 4 } }] });
    expect(h.log).toContain('setCvvSize 4');
    expect(h.configures.get('cvv')?.label).toBe('CVV (4 digits)');
    h.frame('number', { type: 'state', field: 'number', event: 'blur', state: { ...VALID, isValid: false, isPotentiallyValid: false } });
    expect(h.configures.get('number')).toMatchObject({ invalid: true, errorMessage: 'This card number is not valid.' });
  });

  it('passes Enter and the known BIN on to the integrator', async () => {
    const onInputSubmitRequest = vi.fn();
    const onBinAvailable = vi.fn();
    const h = await readyHarness({ onInputSubmitRequest, onBinAvailable });
    h.frame('number', { type: 'binAvailable', bin: '411111' });
    h.frame('cvv', { type: 'inputSubmitRequest', field: 'cvv' });
    expect(onBinAvailable).toHaveBeenCalledWith({ bin: '411111' });
    expect(onInputSubmitRequest).toHaveBeenCalledWith({ field: 'cvv' });
  });

  it('resolves requestPaymentMethod with the tokenized card and fires requestable events on change', async () => {
    const onPaymentMethodRequestable = vi.fn();
    const onNoPaymentMethodRequestable = vi.fn();
    const h = await readyHarness({ onPaymentMethodRequestable, onNoPaymentMethodRequestable });
    h.frame('number', { type: 'cardTypeChange', cards: [{ type: 'visa', niceType: 'Visa', code: { name: 'CVV', size: 3 } }] });
    for (const field of ['number', 'expirationDate', 'cvv'] as const) h.frame(field, { type: 'state', field, event: 'input', state: VALID });
    expect(onPaymentMethodRequestable).toHaveBeenCalledTimes(1);
    expect(onPaymentMethodRequestable).toHaveBeenCalledWith({ type: 'CreditCard', paymentMethodIsSelected: false });
    expect(h.runtime.instance.isPaymentMethodRequestable()).toBe(true);

    const request = h.runtime.instance.requestPaymentMethod();
    expect(h.log).toContain('tokenize number,expirationDate,cvv');
    expect(h.runtime.getState().phase).toBe('submitting');
    h.answerTokenize({ ok: true, result });
    await expect(request).resolves.toEqual(result);
    expect(h.log).toContain('clear');
    expect(onPaymentMethodRequestable).toHaveBeenLastCalledWith({ type: 'CreditCard', paymentMethodIsSelected: true });

    h.runtime.instance.clearSelectedPaymentMethod();
    expect(onNoPaymentMethodRequestable).toHaveBeenCalledTimes(1);
  });

  it('rejects an incomplete form with the sheet message', async () => {
    const h = await readyHarness();
    const error = await h.runtime.instance.requestPaymentMethod().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CheckoutError);
    expect(error).toMatchObject({ code: 'invalid_fields', message: 'Check your entries and try again.' });
    expect(h.runtime.getState().sheetError).toBe('error.checkEntries');
  });

  it('rejects with the mapped message when tokenization fails', async () => {
    const h = await readyHarness();
    h.frame('number', { type: 'cardTypeChange', cards: [{ type: 'visa', niceType: 'Visa', code: { name: 'CVV', size: 3 } }] });
    for (const field of ['number', 'expirationDate', 'cvv'] as const) h.frame(field, { type: 'state', field, event: 'input', state: VALID });
    const request = h.runtime.instance.requestPaymentMethod();
    h.answerTokenize({ ok: false, error: { code: 'network', message: 'offline' } });
    await expect(request).rejects.toMatchObject({ code: 'network', message: 'Network error. Please try again.' });
    expect(h.runtime.getState().phase).toBe('ready');
  });

  it('reports a bad client token to onError with a fix-it message', async () => {
    const onError = vi.fn();
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const runtime = new CheckoutRuntime({
      authorization: 'definitely not a token',
      settings: { cardholderName: 'optional', clearFieldsAfterTokenization: true },
      translate: createTranslator('en'),
      callbacks: () => ({ onError }),
    });
    runtime.start();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(runtime.getState().phase).toBe('error');
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ code: 'invalid_authorization' }));
    expect(errors).toHaveBeenCalledWith(expect.stringContaining('not base64-encoded JSON'));
    errors.mockRestore();
  });

  it('offers a retry after a network failure', async () => {
    const onError = vi.fn();
    const h = harness({ onError });
    h.runtime.start();
    await h.settle();
    h.answerConfig(new ProviderError({ code: 'network', messageKey: 'error.network', retriable: true }, 'offline'));
    await h.settle();
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ code: 'network', message: 'Network error. Please try again.' }));
    h.runtime.retry();
    expect(h.runtime.getState().phase).toBe('loading');
    await h.settle();
    h.answerConfig(config);
    await h.settle();
    expect(h.runtime.getState().phase).toBe('mounting');
  });

  it('survives being destroyed during set-up and during tokenization', async () => {
    const onReady = vi.fn();
    const early = harness({ onReady });
    early.runtime.start();
    early.runtime.destroy();
    await early.settle();
    early.answerConfig(config);
    await early.settle();
    expect(early.runtime.getState().phase).toBe('loading');
    expect(onReady).not.toHaveBeenCalled();

    const loading = harness({ onReady });
    loading.runtime.start();
    await loading.settle();
    loading.runtime.destroy();
    loading.answerConfig(config);
    await loading.settle();
    expect(loading.runtime.getState().phase).toBe('loading');
    expect(onReady).not.toHaveBeenCalled();

    const late = await readyHarness();
    late.frame('number', { type: 'cardTypeChange', cards: [{ type: 'visa', niceType: 'Visa', code: { name: 'CVV', size: 3 } }] });
    for (const field of ['number', 'expirationDate', 'cvv'] as const) late.frame(field, { type: 'state', field, event: 'input', state: VALID });
    const request = late.runtime.instance.requestPaymentMethod();
    late.runtime.destroy();
    expect(late.log).toContain('teardown');
    await expect(request).rejects.toMatchObject({ code: 'not_ready' });
    late.answerTokenize({ ok: true, result });
    await expect(late.runtime.instance.requestPaymentMethod()).rejects.toMatchObject({ code: 'not_ready' });
  });
});
