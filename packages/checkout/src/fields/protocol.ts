// The typed postMessage protocol between the checkout and the hosted field frames (contracts section 1).
// Incoming data is untrusted: it is parsed field by field into a closed union, anything else is dropped.
import { isFieldName, type CardCandidate, type FieldName, type FieldReport, type FieldState } from '../machine/checkout.types.ts';
import { isRecord } from '../provider/json.ts';

export const PROTOCOL_SOURCE = 'kassa-hosted-fields';

export interface FieldStyle {
  readonly color?: string;
  readonly fontFamily?: string;
  readonly fontSize?: string;
  readonly fontWeight?: string;
  readonly lineHeight?: string;
  /** `right` for a digit field (kept left-to-right) on a right-to-left page, so it lines up with its label. */
  readonly textAlign?: 'left' | 'right';
  /** The field's own background (the frame paints it, so the text's contrast is judged against what shows). */
  readonly backgroundColor?: string;
}

export interface ConfigurePayload {
  readonly label: string;
  readonly placeholder?: string;
  readonly required: boolean;
  readonly invalid: boolean;
  readonly errorMessage?: string;
  /** The language of the label and messages (BCP 47), so assistive technology reads them right. */
  readonly lang?: string;
  /** The input's writing direction: the page's for the name, always `ltr` for digits. */
  readonly dir?: 'ltr' | 'rtl';
  readonly style?: FieldStyle;
}

export interface TokenizeRequest {
  readonly requestId: string;
  readonly authorizationFingerprint: string;
  readonly clientApiUrl: string;
  readonly fields: readonly FieldName[];
  /** "Save card": the gateway saves the card for the client token's customer (verified, duplicates refused). */
  readonly vault?: boolean;
}

/** Parent -> frame. */
export type ParentMessage =
  | ({ readonly type: 'configure' } & ConfigurePayload)
  | { readonly type: 'setCvvSize'; readonly size: 3 | 4 | null }
  | { readonly type: 'focus' }
  | { readonly type: 'clear' }
  /**
   * Answered with `synced` after every report the frame sent before it (messages between two windows keep their order),
   * or `syncFailed` when the frame's card rules could not be imported.
   */
  | { readonly type: 'sync' }
  | ({ readonly type: 'tokenize' } & TokenizeRequest);

/** Frame -> parent, after validation. */
export type FrameMessage =
  | { readonly type: 'ready'; readonly field: FieldName }
  | { readonly type: 'state'; readonly field: FieldName; readonly event: FieldReport; readonly state: FieldState }
  | { readonly type: 'cardTypeChange'; readonly cards: readonly CardCandidate[] }
  | { readonly type: 'binAvailable'; readonly bin: string }
  | { readonly type: 'inputSubmitRequest'; readonly field: FieldName }
  | { readonly type: 'synced'; readonly field: FieldName }
  /** Its `sync` waited for the frame's card rules, whose import failed: no `synced` comes. */
  | { readonly type: 'syncFailed'; readonly field: FieldName }
  /** `tokenized` or `tokenizeFailed` from the number frame: read by a submit's module (submit.ts), not here. */
  | { readonly type: 'tokenizeAnswer'; readonly data: Readonly<Record<string, unknown>> };

/** The frame URL: everything the frame needs travels in the fragment, never to a server. */
export function frameUrl(assetsUrl: string, field: FieldName, channel: string, parentOrigin: string): string {
  const base = assetsUrl.replace(/\/+$/, '');
  return `${base}/hosted-fields/frame.html#${encodeURIComponent(JSON.stringify({ field, channel, parentOrigin }))}`;
}

export function envelope(channel: string, message: ParentMessage): Readonly<Record<string, unknown>> {
  return { source: PROTOCOL_SOURCE, channel, ...message };
}

function parseFieldState(value: unknown): FieldState | null {
  if (!isRecord(value)) return null;
  const { isEmpty, isValid, isPotentiallyValid, isFocused } = value;
  if (typeof isEmpty !== 'boolean' || typeof isValid !== 'boolean') return null;
  if (typeof isPotentiallyValid !== 'boolean' || typeof isFocused !== 'boolean') return null;
  return { isEmpty, isValid, isPotentiallyValid, isFocused };
}

function parseCard(value: unknown): CardCandidate | null {
  if (!isRecord(value) || typeof value.type !== 'string' || typeof value.niceType !== 'string') return null;
  const code = value.code;
  if (!isRecord(code) || typeof code.name !== 'string' || typeof code.size !== 'number') return null;
  return { type: value.type, niceType: value.niceType, code: { name: code.name, size: code.size } };
}

export function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** Validates one message from a frame of `channel`; null for anything that is not exactly ours. */
export function parseFrameMessage(data: unknown, channel: string): FrameMessage | null {
  if (!isRecord(data) || data.source !== PROTOCOL_SOURCE || data.channel !== channel) return null;
  switch (data.type) {
    case 'ready':
    case 'inputSubmitRequest':
    case 'synced':
    case 'syncFailed':
      return isFieldName(data.field) ? { type: data.type, field: data.field } : null;
    case 'state': {
      const state = parseFieldState(data.state);
      const event = data.event;
      if (!isFieldName(data.field) || state === null) return null;
      if (event !== 'focus' && event !== 'blur' && event !== 'input' && event !== 'validate') return null;
      return { type: 'state', field: data.field, event, state };
    }
    case 'cardTypeChange': {
      if (!Array.isArray(data.cards)) return null;
      const cards = data.cards.map(parseCard);
      return cards.every((c) => c !== null) ? { type: 'cardTypeChange', cards } : null;
    }
    case 'binAvailable':
      return typeof data.bin === 'string' ? { type: 'binAvailable', bin: data.bin } : null;
    case 'tokenized':
    case 'tokenizeFailed':
      return { type: 'tokenizeAnswer', data };
    default:
      return null;
  }
}

/** The parts of a MessageEvent the router reads (a structural type so tests need no DOM). */
export interface IncomingMessage {
  readonly origin: string;
  readonly source: unknown;
  readonly data: unknown;
}

export interface FrameRouterOptions {
  readonly assetsOrigin: string;
  readonly channel: string;
  /** The window of the frame that hosts `field`, or null if it is not mounted. */
  readonly frameWindowOf: (field: FieldName) => unknown;
  readonly onMessage: (field: FieldName, message: FrameMessage) => void;
}

/** Which field a message is about: its own `field`, else the number frame's (brand changes, BINs, tokenization answers). */
function senderField(message: FrameMessage): FieldName {
  return 'field' in message ? message.field : 'number';
}

/**
 * Accepts a message only if it comes from the gateway's origin, from the very frame window of the field it speaks
 * for, on our channel, and parses. Another page, another instance or a frame impersonating a sibling is ignored.
 */
export function createFrameRouter(options: FrameRouterOptions): (event: IncomingMessage) => void {
  return (event) => {
    if (event.origin !== options.assetsOrigin) return;
    const message = parseFrameMessage(event.data, options.channel);
    if (message === null) return;
    const field = senderField(message);
    const expected = options.frameWindowOf(field);
    if (expected === null || expected === undefined || event.source !== expected) return;
    options.onMessage(field, message);
  };
}
