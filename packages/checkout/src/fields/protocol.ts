// The typed postMessage protocol between the checkout and the hosted field frames (contracts section 1).
// Incoming data is untrusted: it is parsed field by field into a closed union, anything else is dropped.
import { isFieldName, type FieldName } from '../machine/checkout.types.ts';
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
  /**
   * What a frame reports of what is typed in it (`state`, `cardTypeChange`, `binAvailable`, `inputSubmitRequest`), from
   * the frame of `field` (the message's own `field`, else the number's): read by the typing part (reports.ts), imported
   * as the first frame is ready, not here (issue 10: not in the card view's download).
   */
  | { readonly type: 'report'; readonly field: FieldName; readonly data: Readonly<Record<string, unknown>> }
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

/** Validates one message from a frame of `channel`; null for anything that is not exactly ours. */
export function parseFrameMessage(data: unknown, channel: string): FrameMessage | null {
  if (!isRecord(data) || data.source !== PROTOCOL_SOURCE || data.channel !== channel) return null;
  switch (data.type) {
    case 'ready':
    case 'synced':
    case 'syncFailed':
      return isFieldName(data.field) ? { type: data.type, field: data.field } : null;
    case 'state':
    case 'cardTypeChange':
    case 'binAvailable':
    case 'inputSubmitRequest':
      return { type: 'report', field: isFieldName(data.field) ? data.field : 'number', data };
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
  /** The window of the frame that hosts `field`, or null or undefined if it is not mounted. */
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
