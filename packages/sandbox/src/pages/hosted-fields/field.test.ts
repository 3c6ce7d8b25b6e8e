import type braintree from 'braintree';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../index.ts';
import { FakeInput } from '../../testing/fake-input.ts';
import { decodeClientToken, startSandboxWithClient } from '../../testing/sandbox.ts';
import { createHostedField } from './field.ts';
import type { FieldHost, HostedField } from './field.ts';
import { MESSAGE_SOURCE } from './protocol.ts';
import type { FieldName, FrameMessage } from './protocol.ts';

// The hosted field logic under Node: real BroadcastChannels between sibling fields, real fetch to a real sandbox.

interface Mounted {
  input: FakeInput;
  field: HostedField;
  posted: Array<FrameMessage & { source: string; channel: string }>;
}

let sandbox: Sandbox;
let clientApiUrl: string;
let authorizationFingerprint: string;
let gateway: braintree.BraintreeGateway;
const channels: BroadcastChannel[] = [];
let channelCount = 0;

beforeAll(async () => {
  const started = await startSandboxWithClient();
  ({ sandbox, gateway } = started);
  ({ clientApiUrl, authorizationFingerprint } = started.token);
});
afterAll(async () => {
  await sandbox.close();
});
afterEach(() => {
  for (const channel of channels.splice(0)) channel.close();
});

interface MountOptions {
  gatewayFetch?: typeof fetch;
  requestTimeoutMs?: number;
  collectTimeoutMs?: number;
  loadTokenizer?: FieldHost['loadTokenizer'];
  loadRules?: FieldHost['loadRules'];
}

const RULES = import('./field-steps.ts');

/** The fields of one instance, as their frames start: the card rules still to arrive. */
function mountFields(
  fields: FieldName[],
  {
    gatewayFetch = (resource, init) => fetch(resource, init),
    // Generous by default: a loaded machine must not turn a real tokenization into a time-out.
    requestTimeoutMs = 10_000,
    // Likewise for the siblings' values (300 ms lost one at a load of 20); answered, they end the wait at once.
    collectTimeoutMs = 2_000,
    loadTokenizer = () => import('./tokenize.ts'),
    loadRules = () => RULES,
  }: MountOptions = {},
): Record<string, Mounted> & { channel: string } {
  channelCount += 1;
  const channel = `test-${channelCount}`;
  const mounted: Record<string, Mounted> = {};
  for (const name of fields) {
    const input = new FakeInput();
    const posted: Mounted['posted'] = [];
    const siblings = new BroadcastChannel(`kassa-hosted-fields:${channel}`);
    channels.push(siblings);
    const field = createHostedField(
      { field: name, channel, parentOrigin: 'http://shop.example' },
      {
        input,
        postToParent: (message) => posted.push(message),
        siblings,
        origin: sandbox.origin,
        fetch: gatewayFetch,
        loadTokenizer,
        loadRules,
        collectTimeoutMs,
        requestTimeoutMs,
      },
    );
    mounted[name] = { input, field, posted };
  }
  return Object.assign(mounted, { channel });
}

/** The fields of one instance once their card rules are in (imported as each announced itself ready). */
async function mountInstance(fields: FieldName[], options: MountOptions = {}) {
  const instance = mountFields(fields, options);
  await RULES;
  return instance;
}

function the(instance: Record<string, Mounted>, name: FieldName): Mounted {
  const mounted = instance[name];
  if (!mounted) throw new Error(`no ${name} field`);
  return mounted;
}

async function tokenizeResult(
  instance: Record<string, Mounted> & { channel: string },
  fields: FieldName[],
  url = clientApiUrl,
  save: { vault: boolean; fingerprint: string } | null = null,
) {
  const number = the(instance, 'number');
  const requestId = `req-${Math.random()}`;
  number.field.receive({
    source: MESSAGE_SOURCE,
    channel: instance.channel,
    type: 'tokenize',
    requestId,
    authorizationFingerprint: save?.fingerprint ?? authorizationFingerprint,
    clientApiUrl: url,
    fields,
    ...(save === null ? {} : { vault: save.vault }),
  });
  for (let waited = 0; waited < 3000; waited += 20) {
    const answer = number.posted.find(
      (message) => (message.type === 'tokenized' || message.type === 'tokenizeFailed') && message.requestId === requestId,
    );
    if (answer) return answer;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('no tokenize answer');
}

const year = new Date().getFullYear() + 2;
const ALL: FieldName[] = ['number', 'expirationDate', 'cvv', 'cardholderName', 'postalCode'];

describe('hosted field messages', () => {
  it('announces ready and sets the input up for its field', async () => {
    const instance = await mountInstance(['number', 'expirationDate', 'cvv']);
    const number = the(instance, 'number');
    expect(number.posted[0]).toEqual({ source: MESSAGE_SOURCE, channel: instance.channel, type: 'ready', field: 'number' });
    expect(number.input.attributes.get('autocomplete')).toBe('cc-number');
    expect(number.input.inputMode).toBe('numeric');
    expect(the(instance, 'cvv').input.attributes.get('autocomplete')).toBe('cc-csc');
    expect(the(instance, 'expirationDate').input.attributes.get('autocomplete')).toBe('cc-exp');
  });

  it('groups the card number as it is typed, and leaves the CVV digits only', async () => {
    const instance = await mountInstance(['number', 'cvv']);
    const number = the(instance, 'number').input;
    number.type('378282246310005');
    expect(number.value).toBe('3782 822463 10005');
    expect(number.selectionStart).toBe(17);
    const cvv = the(instance, 'cvv').input;
    cvv.type('12a4');
    expect(cvv.value).toBe('124');
  });

  it('reports state on focus, input and blur, card types once they change, and the BIN', async () => {
    const { input, posted } = the(await mountInstance(['number']), 'number');
    input.focus();
    input.type('4');
    input.type('41');
    input.type('4111 11');
    input.type('4111 1111 1111 1111');
    input.dispatchEvent(new Event('blur'));
    const types = posted.map((message) => message.type);
    // "4" may still be several brands; "41" is Visa alone; further digits change nothing, so no further event.
    const changes = posted.filter((message) => message.type === 'cardTypeChange');
    expect(types.filter((type) => type === 'cardTypeChange')).toHaveLength(2);
    expect((changes[0] as { cards: unknown[] }).cards.length).toBeGreaterThan(1);
    expect(changes[1]).toMatchObject({ cards: [{ type: 'visa', niceType: 'Visa', code: { name: 'CVV', size: 3 } }] });
    expect((changes[1] as { cards: unknown[] }).cards).toHaveLength(1);
    expect(posted.filter((message) => message.type === 'binAvailable')).toMatchObject([{ bin: '411111' }]);
    const states = posted.filter((message) => message.type === 'state');
    expect(states[0]).toMatchObject({ event: 'focus', state: { isEmpty: true, isFocused: true } });
    expect(states.at(-2)).toMatchObject({ event: 'input', state: { isValid: true, isPotentiallyValid: true, isFocused: true } });
    expect(states.at(-1)).toMatchObject({ event: 'blur', state: { isValid: true, isFocused: false } });
  });

  it('formats the expiry, asks to submit on Enter, applies configure and setCvvSize, clears, reporting those two as `validate`', async () => {
    const instance = await mountInstance(['expirationDate', 'cvv']);
    const expiry = the(instance, 'expirationDate');
    expiry.input.type('1');
    expiry.input.type('12');
    expect(expiry.input.value).toBe('12 / ');
    expiry.input.type('12 / 3');
    expiry.input.type('12 / 30');
    expect(expiry.input.value).toBe('12 / 30');
    const enter = Object.assign(new Event('keydown', { cancelable: true }), { key: 'Enter' });
    expiry.input.dispatchEvent(enter);
    expect(enter.defaultPrevented).toBe(true);
    expect(expiry.posted.at(-1)).toMatchObject({ type: 'inputSubmitRequest', field: 'expirationDate' });

    const cvv = the(instance, 'cvv');
    const envelope = { source: MESSAGE_SOURCE, channel: instance.channel };
    cvv.field.receive({
      ...envelope,
      type: 'configure',
      label: 'Security code',
      placeholder: '123',
      required: true,
      invalid: true,
      errorMessage: 'Enter the 3 digits on the back',
      lang: 'ar',
      dir: 'ltr',
      style: {
        color: 'rgb(1, 2, 3)',
        fontSize: '16px',
        textAlign: 'right',
        backgroundColor: 'rgb(4, 5, 6)',
        background: 'url(x)',
      },
    });
    expect(Object.fromEntries(cvv.input.attributes)).toMatchObject({
      'aria-label': 'Security code',
      'aria-required': 'true',
      'aria-invalid': 'true',
      'aria-description': 'Enter the 3 digits on the back',
      lang: 'ar',
      dir: 'ltr',
    });
    expect(cvv.input.placeholder).toBe('123');
    expect(cvv.input.style).toEqual({
      color: 'rgb(1, 2, 3)',
      fontSize: '16px',
      textAlign: 'right',
      backgroundColor: 'rgb(4, 5, 6)',
    });
    // Only a language tag and a direction pass: anything else is not written into the frame.
    cvv.field.receive({
      ...envelope,
      type: 'configure',
      label: 'CVV',
      required: true,
      invalid: false,
      lang: 'x" onload',
      dir: 'auto',
    });
    expect(Object.fromEntries(cvv.input.attributes)).toMatchObject({ lang: 'ar', dir: 'ltr' });

    cvv.input.type('1234');
    expect(cvv.posted.at(-1)).toMatchObject({ type: 'state', event: 'input', state: { isValid: true } });
    // Judged again at the parent's word, not typed: reported as `validate` (the parent keeps a message it shows).
    cvv.field.receive({ ...envelope, type: 'setCvvSize', size: 3 });
    expect(cvv.posted.at(-1)).toMatchObject({ type: 'state', event: 'validate', state: { isValid: false } });
    cvv.field.receive({ ...envelope, type: 'clear' });
    expect(cvv.input.value).toBe('');
    expect(cvv.posted.at(-1)).toMatchObject({ type: 'state', event: 'validate', state: { isEmpty: true } });
  });

  it('answers a sync with synced, after the reports of what was entered before it', async () => {
    const instance = await mountInstance(['postalCode']);
    const postal = the(instance, 'postalCode');
    postal.input.type('12345');
    postal.field.receive({ source: MESSAGE_SOURCE, channel: instance.channel, type: 'sync' });
    expect(postal.posted.map(({ type }) => type)).toEqual(['ready', 'state', 'synced']);
    expect(postal.posted.at(-1)).toEqual({
      source: MESSAGE_SOURCE,
      channel: instance.channel,
      type: 'synced',
      field: 'postalCode',
    });
  });

  it('ignores messages of another channel or source', async () => {
    const { field, input } = the(await mountInstance(['number']), 'number');
    input.value = '4111';
    field.receive({ source: MESSAGE_SOURCE, channel: 'other', type: 'clear' });
    field.receive({ source: 'someone', channel: 'test', type: 'clear' });
    expect(input.value).toBe('4111');
  });
});

describe('tokenize', () => {
  it('gathers sibling values, tokenizes at the sandbox and answers the parent with creditCards[0]', async () => {
    const instance = await mountInstance(ALL);
    the(instance, 'number').input.type('4111 1111 1111 1111');
    the(instance, 'expirationDate').input.type(`12${year % 100}`);
    the(instance, 'cvv').input.type('123');
    the(instance, 'cardholderName').input.type('Ada Lovelace');
    the(instance, 'postalCode').input.type('SW1A 1AA');
    const answer = await tokenizeResult(instance, ALL);
    expect(answer).toMatchObject({
      type: 'tokenized',
      result: {
        type: 'CreditCard',
        description: 'ending in 11',
        details: {
          cardType: 'Visa',
          lastFour: '1111',
          expirationMonth: '12',
          expirationYear: String(year),
          cardholderName: 'Ada Lovelace',
        },
      },
    });
    const nonce = (answer as { result: { nonce: string } }).result.nonce;
    const sale = await gateway.transaction.sale({ amount: '10.00', paymentMethodNonce: nonce });
    expect(sale.success).toBe(true);
    // The parent never receives card data: only states, brands, the BIN and the result.
    const everything = JSON.stringify(ALL.map((name) => the(instance, name).posted));
    expect(everything).not.toContain('4111111111111111');
    expect(everything).not.toContain('4111 1111 1111 1111');
    expect(everything).not.toContain('"123"');
  });

  it("saves the card for the customer with vault: true; a duplicate or a failed verification is passed on as the gateway's 422", async () => {
    const { customer } = await gateway.customer.create({});
    const generated = await gateway.clientToken.generate({
      customerId: customer.id,
      options: { verifyCard: true, failOnDuplicatePaymentMethod: true },
    });
    const fingerprint = decodeClientToken(generated.clientToken).authorizationFingerprint;
    const typed = async (number: string) => {
      const instance = await mountInstance(['number', 'expirationDate']);
      the(instance, 'number').input.type(number);
      the(instance, 'expirationDate').input.type(`12${year % 100}`);
      return instance;
    };
    const saved = await tokenizeResult(await typed('5555 5555 5555 4444'), ['number', 'expirationDate'], clientApiUrl, {
      vault: true,
      fingerprint,
    });
    expect(saved).toMatchObject({ type: 'tokenized', result: { details: { lastFour: '4444' } } });
    expect((await gateway.customer.find(customer.id)).creditCards?.map((card) => card.last4)).toEqual(['4444']);

    const again = await tokenizeResult(await typed('5555 5555 5555 4444'), ['number', 'expirationDate'], clientApiUrl, {
      vault: true,
      fingerprint,
    });
    expect(again).toMatchObject({
      type: 'tokenizeFailed',
      error: {
        code: 'gateway_answer',
        answer: { status: 422, body: { fieldErrors: [{ fieldErrors: [{ field: 'number', code: '81724' }] }] } },
      },
    });
    const declined = await tokenizeResult(await typed('4000 1111 1111 1115'), ['number', 'expirationDate'], clientApiUrl, {
      vault: true,
      fingerprint,
    });
    expect(declined).toMatchObject({
      type: 'tokenizeFailed',
      error: { code: 'gateway_answer', answer: { status: 422, body: { verification: { status: 'processor_declined' } } } },
    });
    // Without vault the same card only tokenizes: nothing more is saved.
    expect(
      await tokenizeResult(await typed('5555 5555 5555 4444'), ['number', 'expirationDate'], clientApiUrl, {
        vault: false,
        fingerprint,
      }),
    ).toMatchObject({
      type: 'tokenized',
    });
    expect((await gateway.customer.find(customer.id)).creditCards).toHaveLength(1);
  });

  it('fails with invalid_fields naming the bad fields, without calling the gateway', async () => {
    const instance = await mountInstance(['number', 'expirationDate', 'cvv']);
    the(instance, 'number').input.type('378282246310005');
    the(instance, 'expirationDate').input.type('13');
    the(instance, 'cvv').input.type('123');
    expect(await tokenizeResult(instance, ['number', 'expirationDate', 'cvv'])).toMatchObject({
      type: 'tokenizeFailed',
      error: { code: 'invalid_fields', fields: ['expirationDate', 'cvv'] },
    });
  });

  it('names a sibling that does not answer as invalid', async () => {
    const instance = await mountInstance(['number', 'expirationDate'], { collectTimeoutMs: 300 });
    the(instance, 'number').input.type('4111111111111111');
    the(instance, 'expirationDate').input.type(`12${year % 100}`);
    expect(await tokenizeResult(instance, ['number', 'expirationDate', 'cvv'])).toMatchObject({
      type: 'tokenizeFailed',
      error: { code: 'invalid_fields', fields: ['cvv'] },
    });
  });

  it('passes the gateway refusing the brand on as its 422 answer', async () => {
    const instance = await mountInstance(['number', 'expirationDate']);
    the(instance, 'number').input.type('6363680000457017');
    the(instance, 'expirationDate').input.type(`12${year % 100}`);
    expect(await tokenizeResult(instance, ['number', 'expirationDate'])).toMatchObject({
      type: 'tokenizeFailed',
      error: {
        code: 'gateway_answer',
        answer: { status: 422, body: { fieldErrors: [{ fieldErrors: [{ field: 'number', code: '81703' }] }] } },
      },
    });
  });

  it("passes a bad fingerprint's 401 on and refuses other origins", async () => {
    const instance = await mountInstance(['number', 'expirationDate']);
    the(instance, 'number').input.type('4111111111111111');
    the(instance, 'expirationDate').input.type(`12${year % 100}`);
    const saved = authorizationFingerprint;
    authorizationFingerprint = 'forged';
    try {
      expect(await tokenizeResult(instance, ['number', 'expirationDate'])).toMatchObject({
        error: { code: 'gateway_answer', answer: { status: 401 } },
      });
    } finally {
      authorizationFingerprint = saved;
    }
    expect(await tokenizeResult(instance, ['number', 'expirationDate'], 'http://evil.example/client_api')).toMatchObject({
      error: { code: 'gateway' },
    });
  });
});

describe("the card rules' script", () => {
  /** A field whose card rules arrive when the test says, each import counted. */
  function slowRules(field: FieldName) {
    const imports: Array<(outcome: 'in' | 'failed') => Promise<void>> = [];
    const loadRules: FieldHost['loadRules'] = () =>
      new Promise((resolve, reject) => {
        imports.push(async (outcome) => {
          if (outcome === 'in') resolve(await RULES);
          else reject(new TypeError('Failed to fetch dynamically imported module'));
          await new Promise((settled) => setTimeout(settled, 0));
        });
      });
    const instance = mountFields([field], { loadRules });
    return { ...the(instance, field), channel: instance.channel, imports };
  }

  it('is imported as the field announces itself ready; what is typed before it is in is formatted and reported, in order, once it is', async () => {
    const { input, field, posted, channel, imports } = slowRules('number');
    expect(imports).toHaveLength(1);
    // The form's first focus, on the empty field, is reported at once.
    input.focus();
    expect(posted.map(({ type }) => type)).toEqual(['ready', 'state']);
    input.type('4111111111111111');
    field.receive({ source: MESSAGE_SOURCE, channel, type: 'sync' });
    expect(input.value).toBe('4111111111111111');
    expect(posted).toHaveLength(2);
    await imports[0]?.('in');
    expect(input.value).toBe('4111 1111 1111 1111');
    expect(posted.map(({ type }) => type)).toEqual(['ready', 'state', 'cardTypeChange', 'binAvailable', 'state', 'synced']);
    expect(posted[4]).toMatchObject({ event: 'input', state: { isEmpty: false, isValid: true, isFocused: true } });
    // Once in, every step runs at once.
    input.dispatchEvent(new Event('blur'));
    expect(posted.at(-1)).toMatchObject({ type: 'state', event: 'blur', state: { isValid: true, isFocused: false } });
    expect(imports).toHaveLength(1);
  });

  it('keeps what waited for an import that failed and imports again at the next step: each input reported once it is in', async () => {
    const { input, posted, imports } = slowRules('expirationDate');
    input.type('1');
    await imports[0]?.('failed');
    expect(posted.map(({ type }) => type)).toEqual(['ready']);
    input.type('12');
    expect(imports).toHaveLength(2);
    await imports[1]?.('in');
    expect(input.value).toBe('12 / ');
    expect(posted.at(-1)).toMatchObject({ type: 'state', event: 'input', state: { isEmpty: false, isPotentiallyValid: true } });
    expect(posted.map(({ type }) => type)).toEqual(['ready', 'state', 'state']);
  });

  it('formats an expiry typed key by key before they are in as it would have been with them from the start ("3", "2", "8": "03 / 28", not "32 / 8")', async () => {
    /** A key pressed at the end of the field: a character added, or Backspace taking the last away (an input event each). */
    const press = (input: FakeInput, key: string): void => {
      if (key !== 'Backspace') input.type(input.value + key);
      else {
        input.value = input.value.slice(0, -1);
        input.dispatchEvent(Object.assign(new Event('input'), { inputType: 'deleteContentBackward' }));
      }
    };
    // A year to come, two digits.
    const yy = [...String(year % 100)];
    const sequences = [
      ['3', ...yy],
      ['1', ...yy],
      ['3', '2', 'Backspace', 'Backspace', '1', '1', ...yy],
      ['0', '3', '/', ...yy],
      ['1', '/', ...yy],
      ['4', '1', 'Backspace', ...yy],
    ];
    for (const keys of sequences) {
      const withRules = the(await mountInstance(['expirationDate']), 'expirationDate').input;
      const late = slowRules('expirationDate');
      for (const key of keys) {
        press(withRules, key);
        press(late.input, key);
      }
      await late.imports[0]?.('in');
      expect({ keys, value: late.input.value }).toEqual({ keys, value: withRules.value });
    }
    const late = slowRules('expirationDate');
    for (const key of ['3', ...yy]) press(late.input, key);
    await late.imports[0]?.('in');
    expect(late.input.value).toBe(`03 / ${yy.join('')}`);
    expect(late.posted.at(-1)).toMatchObject({ type: 'state', event: 'input', state: { isValid: true } });
  });

  it('forgets the expiry typed before a clear once they are in: "0", "03", a clear, "0" ends "0", not "03 / "', async () => {
    const { input, field, channel, imports } = slowRules('expirationDate');
    input.type('0');
    input.type('03');
    field.receive({ source: MESSAGE_SOURCE, channel, type: 'clear' });
    input.type('0');
    await imports[0]?.('in');
    expect(input.value).toBe('0');
  });

  it("answers a Pay's sync with syncFailed when the import it tried again fails too; the next sync imports again and is answered synced alone", async () => {
    const { input, field, posted, channel, imports } = slowRules('number');
    input.type('4111111111111111');
    await imports[0]?.('failed');
    field.receive({ source: MESSAGE_SOURCE, channel, type: 'sync' });
    await imports[1]?.('failed');
    expect(posted.map(({ type }) => type)).toEqual(['ready', 'syncFailed']);
    field.receive({ source: MESSAGE_SOURCE, channel, type: 'sync' });
    expect(imports).toHaveLength(3);
    await imports[2]?.('in');
    // The failed sync was answered: only the new one is answered synced, after the reports.
    expect(posted.map(({ type }) => type)).toEqual(['ready', 'syncFailed', 'cardTypeChange', 'binAvailable', 'state', 'synced']);
  });

  it("imports it once more for a Pay's sync that came while the first import was under way and failed: synced when that one is in", async () => {
    const { input, field, posted, channel, imports } = slowRules('number');
    input.type('4111111111111111');
    field.receive({ source: MESSAGE_SOURCE, channel, type: 'sync' });
    await imports[0]?.('failed');
    expect(posted.map(({ type }) => type)).toEqual(['ready']);
    expect(imports).toHaveLength(2);
    await imports[1]?.('in');
    expect(posted.map(({ type }) => type)).toEqual(['ready', 'cardTypeChange', 'binAvailable', 'state', 'synced']);
  });

  it('answers that sync with syncFailed when its own import fails too, and imports no more until the next step', async () => {
    const { input, field, posted, channel, imports } = slowRules('number');
    input.type('4111111111111111');
    field.receive({ source: MESSAGE_SOURCE, channel, type: 'sync' });
    await imports[0]?.('failed');
    await imports[1]?.('failed');
    expect(posted.map(({ type }) => type)).toEqual(['ready', 'syncFailed']);
    expect(imports).toHaveLength(2);
  });

  it('asks to submit on Enter at once before it is in, and once only: the Pay waits for it through its sync', async () => {
    const { input, posted, imports } = slowRules('number');
    input.type('4111111111111111');
    const enter = Object.assign(new Event('keydown', { cancelable: true }), { key: 'Enter' });
    input.dispatchEvent(enter);
    expect(enter.defaultPrevented).toBe(true);
    expect(posted.map(({ type }) => type)).toEqual(['ready', 'inputSubmitRequest']);
    await imports[0]?.('in');
    expect(posted.filter(({ type }) => type === 'inputSubmitRequest')).toHaveLength(1);
  });

  it("imports it again at a Pay's sync when an import failed: what was typed formatted, brands and state reported, then synced", async () => {
    const { input, field, posted, channel, imports } = slowRules('number');
    input.type('4111111111111111');
    await imports[0]?.('failed');
    field.receive({ source: MESSAGE_SOURCE, channel, type: 'sync' });
    expect(imports).toHaveLength(2);
    expect(posted.map(({ type }) => type)).toEqual(['ready']);
    await imports[1]?.('in');
    expect(input.value).toBe('4111 1111 1111 1111');
    expect(posted.map(({ type }) => type)).toEqual(['ready', 'cardTypeChange', 'binAvailable', 'state', 'synced']);
    expect(posted[3]).toMatchObject({ event: 'input', state: { isEmpty: false, isValid: true } });
  });
});

describe("the number field's tokenization script", () => {
  it('is imported once the shopper types in the number field; an import that failed answers network and is tried again at the next tokenize', async () => {
    let imports = 0;
    // Stands in for the browser's import of tokenize.js failing once (offline), then succeeding.
    const load: FieldHost['loadTokenizer'] = () => {
      imports += 1;
      return imports === 1
        ? Promise.reject(new TypeError('Failed to fetch dynamically imported module'))
        : import('./tokenize.ts');
    };
    const instance = await mountInstance(['number', 'expirationDate'], { loadTokenizer: load });
    the(instance, 'expirationDate').input.type(`12${year % 100}`);
    expect(imports).toBe(0);
    the(instance, 'number').input.type('4111 1111 1111 1111');
    expect(imports).toBe(1);
    // The Pay that finds the import failed is told so; the next one imports again.
    expect(await tokenizeResult(instance, ['number', 'expirationDate'])).toMatchObject({
      type: 'tokenizeFailed',
      error: { code: 'network', message: 'The tokenization script could not be loaded.' },
    });
    expect(await tokenizeResult(instance, ['number', 'expirationDate'])).toMatchObject({ type: 'tokenized' });
    expect(imports).toBe(2);
  });
});

describe('gateway failures during tokenization', () => {
  async function filledNumber(gatewayFetch: typeof fetch, requestTimeoutMs?: number) {
    const instance = await mountInstance(['number'], { gatewayFetch, requestTimeoutMs });
    the(instance, 'number').input.type('4111111111111111');
    return instance;
  }
  const answer =
    (status: number, headers: Record<string, string> = {}): typeof fetch =>
    async () =>
      new Response('{}', { status, headers });

  it.each([
    [401, {}, null],
    [429, { 'Retry-After': '3' }, '3'],
    [503, {}, null],
  ])('passes HTTP %i on with its Retry-After and body, for the parent to read', async (status, headers, retryAfter) => {
    const result = await tokenizeResult(await filledNumber(answer(status, headers)), []);
    expect(result).toMatchObject({
      type: 'tokenizeFailed',
      error: { code: 'gateway_answer', message: `The gateway answered ${status}.`, answer: { status, retryAfter, body: {} } },
    });
  });

  it('reports a gateway that does not answer in time as a time-out, and a refused connection as a network error', async () => {
    const hung: typeof fetch = (_, init) =>
      new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal?.reason)));
    expect(await tokenizeResult(await filledNumber(hung, 200), [])).toMatchObject({ error: { code: 'timeout' } });
    const refused: typeof fetch = async () => {
      throw new TypeError('fetch failed');
    };
    expect(await tokenizeResult(await filledNumber(refused), [])).toMatchObject({ error: { code: 'network' } });
  });
});
