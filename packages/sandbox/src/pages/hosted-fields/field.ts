import { MESSAGE_SOURCE } from './protocol.ts';
import type { Envelope, FieldName, FrameMessage, FrameParams, ParentMessage } from './protocol.ts';
import type { ExpiryEdit } from './validate.ts';

// One hosted card field, as it takes typing: its input's attributes, the parent's `configure` and `focus`, `ready`,
// Enter's submit request.
// What it does with what is typed (its state reports to the parent, the number's and the expiry's formatting, brands
// and BIN, the siblings' answers, the number field's tokenization) is field-steps.ts, which comes with the card rules
// in validate.js, imported as the field announces itself ready (issue 10: not in the script a field waits for to take
// typing). What happens before it is in (typing, focus, the parent's and the siblings' messages) is kept, in order, and
// handed to it when it arrives; an import that failed is tried again at the next of them (a Pay's `sync` is one), at
// an address of its own (frame.ts), and a `sync` waiting for its own import that fails is answered `syncFailed`. Written
// against the small interfaces below rather than the DOM so that it runs under Node in tests; frame.ts wires it to the
// real page. Card data leaves a field only to sibling fields (same
// origin, over the BroadcastChannel) and to the sandbox's own tokenization endpoint. Nothing here logs.

/** What the number field imports to tokenize (tokenize.ts). */
export type Tokenizer = Pick<typeof import('./tokenize.ts'), 'tokenize'>;

/** What a field does with the card rules: field-steps.ts, the entry of validate.js. */
export type FieldSteps = typeof import('./field-steps.ts');

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
  /** Its CSSOM declarations, by the camel-case names a parent may set. */
  readonly style: Record<StyleKey, string>;
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
  /** Imports field-steps.ts with the card rules (frame.ts: the gateway's validate.js). */
  loadRules(): Promise<FieldSteps>;
  collectTimeoutMs?: number;
  /** How long the tokenization request may take before it counts as timed out (default 20 s). */
  requestTimeoutMs?: number;
}

export interface HostedField {
  /** A message from the parent, already checked to come from window.parent at the parent origin. */
  receive(data: unknown): void;
}

/** A thing that happened to the field: an event of its input or of its siblings' channel, or a parent's message. */
export type FieldStep = readonly [kind: 'event', event: Event] | readonly [kind: 'parent', message: Envelope<ParentMessage>];

/** What the field's steps (field-steps.ts) are given. */
export interface FieldContext {
  readonly field: FieldName;
  readonly channel: string;
  readonly host: FieldHost;
  readonly post: (message: FrameMessage) => void;
  /** The input's edits (its value then, whether it deleted), each as it was typed: the expiry formats them. */
  readonly edits: ExpiryEdit[];
  /** Whether the input has the focus. */
  readonly focused: () => boolean;
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
type StyleKey = (typeof STYLE_KEYS)[number];

/** A plausible BCP 47 tag: the frame sets it as the input's `lang`, so nothing else may pass. */
const LANGUAGE_TAG = /^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/;

/** A message of the instance's channel; what it holds beyond its `type` (a string) is read as `T` says. */
export function isEnvelope<T extends { type: string }>(data: unknown, channel: string): data is Envelope<T> {
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

  const post = (message: FrameMessage): void => host.postToParent({ source: MESSAGE_SOURCE, channel, ...message });
  let focused = false;
  const edits: ExpiryEdit[] = [];

  // The field's steps, once validate.js is in; until then what happens waits for them, in order.
  let take: ((step: FieldStep) => void) | undefined;
  let waiting: FieldStep[] = [];
  let loading = false;
  const isSync = ([, step]: FieldStep): boolean => step.type === 'sync';
  const load = (): void => {
    if (loading) return;
    loading = true;
    // A Pay's `sync` that comes while an import started before it is under way is owed one import of its own, as a
    // `sync` after a failed import gets: that first import may fail for it (a dropped connection) where a new one would not.
    const forSync = waiting.some(isSync);
    host.loadRules().then(
      ({ startField }) => {
        take = startField({ field, channel, host, post, edits, focused: () => focused });
        for (const step of waiting.splice(0)) take(step);
      },
      () => {
        loading = false;
        if (!forSync && waiting.some(isSync)) return load();
        // A Pay waiting for them (its `sync`) is told at once, its sync dropped: the checkout asks the shopper to reload
        // now rather than after its wait for the answer (SETTLE_TIMEOUT_MS); a Pay after imports them again.
        const kept = waiting.filter((step) => !isSync(step));
        if (kept.length < waiting.length) post({ type: 'syncFailed', field });
        waiting = kept;
      },
    );
  };
  const pass = (step: FieldStep): void => {
    if (take !== undefined) take(step);
    else {
      waiting.push(step);
      load();
    }
  };
  const passEvent = (event: Event): void => pass(['event', event]);

  input.addEventListener('input', (event) => {
    const inputType = (event as Event & { inputType?: unknown }).inputType;
    edits.push([input.value, typeof inputType === 'string' && inputType.startsWith('delete')]);
    passEvent(event);
  });
  // Enter asks the parent to submit at once, the rules in or not: the Pay waits for them through its `sync` as a click
  // does, rather than the shop paying by itself when they arrive a while after the key.
  input.addEventListener('keydown', (event) => {
    if ((event as Event & { key?: unknown }).key === 'Enter') {
      event.preventDefault();
      post({ type: 'inputSubmitRequest', field });
    }
  });
  host.siblings.addEventListener('message', passEvent);
  for (const type of ['focus', 'blur']) {
    input.addEventListener(type, (event) => {
      focused = type === 'focus';
      // An empty field is potentially valid and not valid whatever its rules (validate.test.ts): with nothing waiting,
      // the focus the form gives its first field as it opens is reported at once, not once the rules are in.
      if (take === undefined && waiting.length === 0 && input.value === '') {
        post({
          type: 'state',
          field,
          event: type as 'focus' | 'blur',
          state: { isEmpty: true, isValid: false, isPotentiallyValid: true, isFocused: focused },
        });
      } else passEvent(event);
    });
  }

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
      if (typeof value === 'string') input.style[key] = value;
    }
  };

  post({ type: 'ready', field });
  load();

  return {
    receive(data) {
      if (!isEnvelope<ParentMessage>(data, channel)) return;
      if (data.type === 'configure') configure(data);
      else if (data.type === 'focus') input.focus();
      else {
        if (data.type === 'clear') {
          input.value = '';
          // Not the expiry's inputs from before: once the rules are in, the field stays empty.
          edits.length = 0;
        }
        pass(['parent', data]);
      }
    },
  };
}
