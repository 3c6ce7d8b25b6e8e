// The number frame's tokenization: the sibling fields' values gathered, the card checked, then sent to this frame's
// own origin, the gateway's client API. A script of its own (tokenize.js, an ES module) that the number frame imports
// once the shopper types in it: no frame needs it to take typing, and in frame.js every frame downloaded it before
// a card could be typed (issue 10). The card rules are the frame's, lent through TokenizeContext: this script holds
// no copy of them.
import type { stripNumber, validateNumber } from '../../rules/card-fields.ts';
import type { FieldHost, FieldInput } from './field.ts';
import type {
  Envelope,
  FieldName,
  FrameMessage,
  isFieldName,
  ParentMessage,
  SiblingMessage,
  TokenizeError,
  TokenizeErrorCode,
} from './protocol.ts';
import type { compactExpirationDate, validateField } from './validate.ts';

export type TokenizeRequest = Extract<ParentMessage, { type: 'tokenize' }>;

/** What the number frame lends its tokenization. */
export interface TokenizeContext {
  readonly host: Pick<FieldHost, 'origin' | 'fetch' | 'requestTimeoutMs' | 'siblings' | 'collectTimeoutMs'>;
  readonly input: Pick<FieldInput, 'value'>;
  readonly post: (message: FrameMessage) => void;
  /** Posts to the sibling frames, and reads their messages (null: not this instance's). */
  readonly tell: (message: SiblingMessage) => void;
  readonly readSibling: (event: Event) => Envelope<SiblingMessage> | null;
  readonly rules: {
    readonly validateNumber: typeof validateNumber;
    readonly validateField: typeof validateField;
    readonly stripNumber: typeof stripNumber;
    readonly compactExpirationDate: typeof compactExpirationDate;
    readonly isFieldName: typeof isFieldName;
  };
}

/** The sibling fields' values; fields that do not answer in time are simply missing. */
function collect(requestId: string, wanted: FieldName[], context: TokenizeContext): Promise<Map<FieldName, string>> {
  const { host, readSibling } = context;
  return new Promise((resolve) => {
    const values = new Map<FieldName, string>();
    if (wanted.length === 0) {
      resolve(values);
      return;
    }
    const answered = (event: Event): void => {
      const message = readSibling(event);
      if (message?.type !== 'value' || message.requestId !== requestId) return;
      const { field } = message;
      if (!context.rules.isFieldName(field) || !wanted.includes(field)) return;
      values.set(field, String(message.value));
      if (wanted.every((name) => values.has(name))) done();
    };
    const done = (): void => {
      clearTimeout(timer);
      host.siblings.removeEventListener('message', answered);
      resolve(values);
    };
    const timer = setTimeout(done, host.collectTimeoutMs ?? 1000);
    host.siblings.addEventListener('message', answered);
    context.tell({ type: 'collect', requestId, fields: wanted });
  });
}

export async function tokenize(request: TokenizeRequest, context: TokenizeContext): Promise<void> {
  const { host, input, post } = context;
  const { validateNumber, validateField, stripNumber, compactExpirationDate, isFieldName } = context.rules;
  const { requestId } = request;
  const fail = (code: TokenizeErrorCode, message: string, details?: Omit<TokenizeError, 'code' | 'message'>): void =>
    post({ type: 'tokenizeFailed', requestId, error: { code, message, ...details } });

  let endpoint: URL;
  try {
    endpoint = new URL(`${request.clientApiUrl}/v1/payment_methods/credit_cards`);
  } catch {
    fail('gateway', 'The client API URL is invalid.');
    return;
  }
  // Card data goes only to this frame's own origin, whatever the parent asks.
  if (endpoint.origin !== host.origin) {
    fail('gateway', 'The client API URL is not on the gateway origin.');
    return;
  }

  const wanted = (Array.isArray(request.fields) ? request.fields : []).filter(
    (name): name is FieldName => isFieldName(name) && name !== 'number',
  );
  const values = await collect(requestId, wanted, context);
  values.set('number', input.value);

  const [card, ...others] = validateNumber(input.value).cards;
  const brandCvvSize = card !== undefined && others.length === 0 ? (card.code.size === 4 ? 4 : 3) : null;
  const invalid: FieldName[] = [];
  for (const name of ['number', ...wanted] as FieldName[]) {
    const value = values.get(name);
    if (value === undefined) {
      invalid.push(name);
      continue;
    }
    // Optional fields may be left empty: required-ness is the parent's decision, made before tokenize.
    if (value === '' && (name === 'cardholderName' || name === 'postalCode')) continue;
    if (!validateField(name, value, name === 'cvv' ? brandCvvSize : null).isValid) invalid.push(name);
  }
  if (invalid.length > 0) {
    fail('invalid_fields', 'Some card fields are invalid.', { fields: invalid });
    return;
  }

  const creditCard: Record<string, unknown> = {
    number: stripNumber(values.get('number') ?? ''),
    expirationDate: compactExpirationDate(values.get('expirationDate') ?? ''),
  };
  const cvv = values.get('cvv');
  if (cvv) creditCard['cvv'] = cvv;
  const cardholderName = values.get('cardholderName');
  if (cardholderName) creditCard['cardholderName'] = cardholderName;
  const postalCode = values.get('postalCode');
  if (postalCode) creditCard['billingAddress'] = { postalCode };
  if (request.vault === true) creditCard['options'] = { validate: true };

  // Every request to the gateway has a time-out: a hung gateway must not leave the shopper waiting forever.
  const timeout = AbortSignal.timeout(host.requestTimeoutMs ?? 20_000);
  let response: Response;
  let body: unknown;
  try {
    response = await host.fetch(endpoint, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ authorizationFingerprint: request.authorizationFingerprint, creditCard }),
      credentials: 'omit',
      signal: timeout,
    });
    body = await response.json().catch((error: unknown) => {
      if (timeout.aborted) throw error;
      return null;
    });
  } catch {
    if (timeout.aborted) fail('timeout', 'The gateway did not answer in time.');
    else fail('network', 'The gateway could not be reached.');
    return;
  }
  const result = (body as { creditCards?: unknown[] } | null)?.creditCards?.[0];
  if (response.status === 201 && result !== undefined) {
    post({ type: 'tokenized', requestId, result });
  } else {
    // What an error answer stands for (401, 429 and its Retry-After, a 422's field errors) is the parent's to read, as
    // it reads the answers to its own calls: the frame passes the answer on (an error answer holds no card data).
    const answer = { status: response.status, retryAfter: response.headers.get('Retry-After'), body };
    fail('gateway_answer', `The gateway answered ${response.status}.`, { answer });
  }
}
