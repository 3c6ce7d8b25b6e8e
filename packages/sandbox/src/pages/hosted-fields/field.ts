import { MESSAGE_SOURCE, isFieldName } from './protocol.ts';
import type { Validity } from '../../rules/card-fields.ts';
import type { Envelope, FieldName, FrameMessage, FrameParams, ParentMessage, SiblingMessage } from './protocol.ts';
import type { TokenizeRequest } from './tokenize.ts';
import type { ExpiryEdit } from './validate.ts';

// One hosted card field: its input, its state reports to the parent, and (number field) tokenization, whose request is
// tokenize.ts, imported once the shopper types in the number field. The card rules (validate.ts) are imported as the
// field announces itself ready: what the shopper types before they are in is judged when they arrive. Written against
// the small interfaces below rather than the DOM so that it runs under Node in tests; frame.ts wires it to the real
// page. Card data leaves a field only to sibling fields (same origin, over the BroadcastChannel) and to the sandbox's
// own tokenization endpoint. Nothing here logs.

/** What the number field imports to tokenize (tokenize.ts). */
export type Tokenizer = Pick<typeof import('./tokenize.ts'), 'tokenize'>;

/** The card rules a field judges and formats its input with (validate.ts). */
export type CardRules = typeof import('./validate.ts');

/** The parts of an HTMLInputElement a field uses. */
export interface FieldInput extends EventTarget {
  value: string;
  readonly selectionStart: number | null;
  setSelectionRange(start: number, end: number): void;
  name: string;
  maxLength: number;
  inputMode: string;
  placeholder: string;
  setAttribute(name: string, value: string): void;
  removeAttribute(name: string): void;
  focus(): void;
  readonly style: { setProperty(property: string, value: string): void };
}

export interface SiblingChannel extends EventTarget {
  postMessage(message: unknown): void;
}

export interface FieldHost {
  input: FieldInput;
  /** Posts to window.parent, restricted to the declared parent origin. */
  postToParent(message: Envelope<FrameMessage>): void;
  siblings: SiblingChannel;
  /** This frame's own origin: the only place card data may be sent. */
  origin: string;
  fetch: typeof fetch;
  /** Imports tokenize.ts (number field only; frame.ts: the gateway's tokenize.js). */
  loadTokenizer(): Promise<Tokenizer>;
  /** Imports validate.ts (frame.ts: the gateway's validate.js). */
  loadRules(): Promise<CardRules>;
  collectTimeoutMs?: number;
  /** How long the tokenization request may take before it counts as timed out (default 20 s). */
  requestTimeoutMs?: number;
}

export interface HostedField {
  /** A message from the parent, already checked to come from window.parent at the parent origin. */
  receive(data: unknown): void;
}

const INPUT_ATTRIBUTES: Readonly<Record<FieldName, { autocomplete: string; numeric: boolean; maxLength: number }>> = {
  number: { autocomplete: 'cc-number', numeric: true, maxLength: 23 },
  expirationDate: { autocomplete: 'cc-exp', numeric: true, maxLength: 9 },
  cvv: { autocomplete: 'cc-csc', numeric: true, maxLength: 4 },
  cardholderName: { autocomplete: 'cc-name', numeric: false, maxLength: 255 },
  postalCode: { autocomplete: 'postal-code', numeric: false, maxLength: 10 },
};

/** The style keys a parent may set, each the CSS property of the same name in camel case. */
const STYLE_KEYS = ['color', 'fontFamily', 'fontSize', 'fontWeight', 'lineHeight', 'textAlign', 'backgroundColor'] as const;

/** A plausible BCP 47 tag: the frame sets it as the input's `lang`, so nothing else may pass. */
const LANGUAGE_TAG = /^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/;

export function isEnvelope(data: unknown, channel: string): data is Envelope<{ type: string }> {
  if (data === null || typeof data !== 'object') return false;
  const message = data as Record<string, unknown>;
  return message['source'] === MESSAGE_SOURCE && message['channel'] === channel && typeof message['type'] === 'string';
}

export function createHostedField({ field, channel }: FrameParams, host: FieldHost): HostedField {
  const { input } = host;
  const attributes = INPUT_ATTRIBUTES[field];
  input.name = field;
  input.setAttribute('autocomplete', attributes.autocomplete);
  input.maxLength = attributes.maxLength;
  if (attributes.numeric) input.inputMode = 'numeric';

  let cvvSize: 3 | 4 | null = null;
  let focused = false;
  let cardsKey = '';
  let lastBin = '';

  const post = (message: FrameMessage): void => host.postToParent({ source: MESSAGE_SOURCE, channel, ...message });
  const tell = (message: SiblingMessage): void => host.siblings.postMessage({ source: MESSAGE_SOURCE, channel, ...message });

  // The card rules, imported as the field announces itself ready (not in the script the field waits for to take
  // typing): a step that needs them before they are in waits for them, after the steps that waited before it. An
  // import that failed drops the steps that waited (a later report says the field's state as it is then) and is tried
  // again by the next one; the import that then succeeds first does what the dropped inputs would have (`applyInput`:
  // the value's formatting, the number's brands and BIN), and a Pay's `sync` is such a next step.
  let rules: CardRules | undefined;
  let loading: Promise<CardRules> | null = null;
  let waiting = 0;
  /** An import that failed dropped steps: the field's formatting, brands and reports lag behind its value. */
  let behind = false;
  const loadRules = (): Promise<CardRules> =>
    (loading ??= host.loadRules().then(
      (loaded) => {
        rules = loaded;
        if (behind) applyInput(loaded);
        behind = false;
        return loaded;
      },
      (error: unknown) => {
        loading = null;
        behind ||= waiting > 0;
        waiting = 0;
        throw error;
      },
    ));
  const withRules = (step: (rules: CardRules) => void): void => {
    if (rules !== undefined) {
      step(rules);
      return;
    }
    waiting += 1;
    loadRules().then(
      (loaded) => {
        waiting -= 1;
        step(loaded);
      },
      () => undefined,
    );
  };

  const report = (event: 'focus' | 'blur' | 'input' | 'validate'): void => {
    const send = ({ isValid, isPotentiallyValid }: Validity): void =>
      post({
        type: 'state',
        field,
        event,
        state: { isEmpty: input.value === '', isValid, isPotentiallyValid, isFocused: focused },
      });
    // An empty field is potentially valid and not valid whatever its rules (validate.test.ts): with no step waiting,
    // the focus the form gives its first field as it opens is reported at once, not once the rules are in.
    if (waiting === 0 && input.value === '') send({ isValid: false, isPotentiallyValid: true });
    else withRules(({ validateField }) => send(validateField(field, input.value, cvvSize)));
  };

  const onNumberChange = ({ validateNumber, stripNumber }: CardRules): void => {
    const { cards } = validateNumber(input.value);
    const key = cards.map((card) => card.type).join();
    if (key !== cardsKey) {
      cardsKey = key;
      post({ type: 'cardTypeChange', cards });
    }
    const digits = stripNumber(input.value);
    const bin = /^\d{6}/.test(digits) ? digits.slice(0, 6) : '';
    if (bin !== '' && bin !== lastBin) post({ type: 'binAvailable', bin });
    lastBin = bin;
  };

  // The expiry's inputs the rules have not formatted yet (typed before they arrived): formatted one by one, as they
  // would have been as typed ("3", "2", "7": "03 / 27", not the whole's "32 / 7").
  const expiryEdits: ExpiryEdit[] = [];

  /** What an input needs the rules for: the expiry's and the number's formatting, the number's brands and BIN. */
  const applyInput = (loaded: CardRules): void => {
    if (field === 'expirationDate') {
      if (expiryEdits.length > 0) input.value = loaded.formatExpiryEdits(expiryEdits.splice(0));
    } else if (field === 'number') {
      const formatted = loaded.formatCardNumber(input.value, input.selectionStart ?? input.value.length);
      if (formatted.value !== input.value) {
        input.value = formatted.value;
        input.setSelectionRange(formatted.caret, formatted.caret);
      }
      onNumberChange(loaded);
    }
  };

  input.addEventListener('focus', () => {
    focused = true;
    report('focus');
  });
  input.addEventListener('blur', () => {
    focused = false;
    report('blur');
  });
  input.addEventListener('input', (event) => {
    const inputType = (event as Event & { inputType?: unknown }).inputType;
    if (field === 'cvv') input.value = input.value.replace(/\D/g, '');
    else if (field === 'expirationDate') {
      expiryEdits.push([input.value, typeof inputType === 'string' && inputType.startsWith('delete')]);
      withRules(applyInput);
    } else if (field === 'number') {
      withRules(applyInput);
      loadTokenizer().catch(() => undefined);
    }
    report('input');
  });
  input.addEventListener('keydown', (event) => {
    if ((event as Event & { key?: unknown }).key === 'Enter') {
      event.preventDefault();
      post({ type: 'inputSubmitRequest', field });
    }
  });

  /** A message of this instance's sibling frames, or null. */
  const readSibling = (event: Event): Envelope<SiblingMessage> | null => {
    const data = (event as MessageEvent<unknown>).data;
    return isEnvelope(data, channel) ? (data as Envelope<SiblingMessage>) : null;
  };
  // The other fields answer the number field's tokenization (tokenize.ts) with their values.
  host.siblings.addEventListener('message', (event) => {
    const message = readSibling(event);
    if (message?.type === 'collect' && field !== 'number' && Array.isArray(message.fields) && message.fields.includes(field)) {
      tell({ type: 'value', requestId: message.requestId, field, value: input.value });
    }
  });

  // Its tokenization's script, imported once the shopper types in the number field; an import that failed is tried again
  // at the next keystroke or tokenize, which waits for it (and answers `network` if it fails too).
  let tokenizer: Promise<Tokenizer> | null = null;
  const loadTokenizer = (): Promise<Tokenizer> => {
    tokenizer ??= host.loadTokenizer().catch((error: unknown) => {
      tokenizer = null;
      throw error;
    });
    return tokenizer;
  };
  // The card rules it checks the card with are the field's, lent to it (its script holds no copy of them).
  const tokenizeCard = (request: TokenizeRequest): Promise<void> =>
    Promise.all([loadTokenizer(), loadRules()]).then(
      ([{ tokenize }, loaded]) => tokenize(request, { host, input, post, tell, readSibling, rules: { ...loaded, isFieldName } }),
      () =>
        post({
          type: 'tokenizeFailed',
          requestId: request.requestId,
          error: { code: 'network', message: 'The tokenization script could not be loaded.' },
        }),
    );

  const configure = (message: Extract<ParentMessage, { type: 'configure' }>): void => {
    input.setAttribute('aria-label', String(message.label));
    if (typeof message.placeholder === 'string') input.placeholder = message.placeholder;
    else input.removeAttribute('placeholder');
    input.setAttribute('aria-required', String(message.required === true));
    input.setAttribute('aria-invalid', String(message.invalid === true));
    if (typeof message.errorMessage === 'string' && message.errorMessage !== '') {
      input.setAttribute('aria-description', message.errorMessage);
    } else {
      input.removeAttribute('aria-description');
    }
    if (typeof message.lang === 'string' && LANGUAGE_TAG.test(message.lang)) input.setAttribute('lang', message.lang);
    if (message.dir === 'ltr' || message.dir === 'rtl') input.setAttribute('dir', message.dir);
    const style: unknown = message.style;
    if (style === null || typeof style !== 'object') return;
    for (const key of STYLE_KEYS) {
      const value = (style as Record<string, unknown>)[key];
      // CSSOM writes are allowed under style-src 'self' (unlike style attributes); only plain strings pass.
      if (typeof value === 'string') input.style.setProperty(key.replace(/[A-Z]/g, (upper) => `-${upper}`).toLowerCase(), value);
    }
  };

  post({ type: 'ready', field });
  loadRules().catch(() => undefined);

  return {
    receive(data) {
      if (!isEnvelope(data, channel)) return;
      const message = data as Envelope<ParentMessage>;
      switch (message.type) {
        case 'configure':
          configure(message);
          break;
        case 'setCvvSize':
          if (field === 'cvv') {
            cvvSize = message.size === 3 || message.size === 4 ? message.size : null;
            input.maxLength = cvvSize ?? 4;
            report('validate');
          }
          break;
        case 'focus':
          input.focus();
          break;
        case 'clear':
          input.value = '';
          // Not the expiry's inputs from before the rules: once they are in, the field stays empty.
          expiryEdits.length = 0;
          if (field === 'number') withRules(onNumberChange);
          report('validate');
          break;
        case 'sync':
          // After the reports of what was typed before it. Those an import that failed dropped are made again first
          // (the rules imported again): else a Pay would judge the field by its reports from before.
          if (behind && waiting === 0) report('validate');
          if (waiting === 0) post({ type: 'synced', field });
          else withRules(() => post({ type: 'synced', field }));
          break;
        case 'tokenize':
          if (field === 'number') void tokenizeCard(message);
          break;
      }
    },
  };
}
