// The hosted field message protocol of contracts section 1, shared by the frame script and its tests.

import type { CardCandidate } from '../../rules/card-fields.ts';

export const MESSAGE_SOURCE = 'kassa-hosted-fields';
export const FIELD_NAMES = ['number', 'expirationDate', 'cvv', 'cardholderName', 'postalCode'] as const;
export type FieldName = (typeof FIELD_NAMES)[number];

export function isFieldName(value: unknown): value is FieldName {
  // `includes` compares without coercion: nothing but one of the names' strings is found.
  return (FIELD_NAMES as readonly unknown[]).includes(value);
}

export interface FieldState {
  isEmpty: boolean;
  isValid: boolean;
  isPotentiallyValid: boolean;
  isFocused: boolean;
}

/** A brand the number may be; defined with the card field rules. */
export type { CardCandidate };

export interface FieldStyle {
  color?: string;
  fontFamily?: string;
  fontSize?: string;
  fontWeight?: string;
  lineHeight?: string;
  textAlign?: 'left' | 'right';
  backgroundColor?: string;
}

export type ParentMessage =
  | {
      type: 'configure';
      label: string;
      placeholder?: string;
      required: boolean;
      invalid: boolean;
      errorMessage?: string;
      /** The language of label and messages (BCP 47), and the input's direction (the parent keeps digits `ltr`). */
      lang?: string;
      dir?: 'ltr' | 'rtl';
      style?: FieldStyle;
    }
  | { type: 'setCvvSize'; size: 3 | 4 | null }
  | { type: 'focus' }
  | { type: 'clear' }
  /** Answered with `synced`, after every report sent before it: the parent judges a submit once they are in; with
   * `syncFailed` when the card rules' import it waits for fails. */
  | { type: 'sync' }
  | {
      type: 'tokenize';
      requestId: string;
      authorizationFingerprint: string;
      clientApiUrl: string;
      fields: FieldName[];
      /** "Save card": save the card for the client token's customer (the client API's `creditCard.options.validate`). */
      vault?: boolean;
    };

export type TokenizeErrorCode =
  | 'invalid_fields'
  | 'network'
  | 'timeout'
  /** The gateway answered with an error: `answer` holds it, for the parent to read (status, Retry-After, body). */
  | 'gateway_answer'
  /** The parent asked for a client API that is not on the gateway's origin, or not a URL. */
  | 'gateway';

/** An HTTP answer of the gateway's other than a tokenized card. */
export interface GatewayAnswer {
  status: number;
  /** The Retry-After header as sent, null without one. */
  retryAfter: string | null;
  /** The answer's JSON (its fieldErrors, a verification), null when it is not JSON. */
  body: unknown;
}

export interface TokenizeError {
  code: TokenizeErrorCode;
  message: string;
  fields?: FieldName[];
  answer?: GatewayAnswer;
}

export type FrameMessage =
  | { type: 'ready'; field: FieldName }
  /** `validate`: judged again at the parent's word (`setCvvSize`, `clear`), not typed: the parent keeps a shown message. */
  | { type: 'state'; field: FieldName; event: 'focus' | 'blur' | 'input' | 'validate'; state: FieldState }
  | { type: 'cardTypeChange'; cards: CardCandidate[] }
  | { type: 'binAvailable'; bin: string }
  | { type: 'inputSubmitRequest'; field: FieldName }
  | { type: 'synced'; field: FieldName }
  /** A `sync` waiting for the card rules whose import failed: the parent does not wait for `synced`. */
  | { type: 'syncFailed'; field: FieldName }
  | { type: 'tokenized'; requestId: string; result: unknown }
  | { type: 'tokenizeFailed'; requestId: string; error: TokenizeError };

/** Between sibling frames of one instance, over the BroadcastChannel (same origin only; not part of the contract). */
export type SiblingMessage =
  | { type: 'collect'; requestId: string; fields: FieldName[] }
  | { type: 'value'; requestId: string; field: FieldName; value: string };

/** Every message carries the envelope `{ source, channel }`. */
export type Envelope<T> = T & { source: typeof MESSAGE_SOURCE; channel: string };

/** The frame's own configuration, from the URL fragment. */
export interface FrameParams {
  field: FieldName;
  channel: string;
  parentOrigin: string;
}

export function parseFrameParams(hash: string): FrameParams | null {
  let raw: unknown;
  try {
    raw = JSON.parse(decodeURIComponent(hash.replace(/^#/, '')));
  } catch {
    return null;
  }
  if (raw === null || typeof raw !== 'object') return null;
  const { field, channel, parentOrigin } = raw as Record<string, unknown>;
  if (!isFieldName(field) || typeof channel !== 'string' || channel === '' || typeof parentOrigin !== 'string') return null;
  let origin: string;
  try {
    origin = new URL(parentOrigin).origin;
  } catch {
    return null;
  }
  // Only an exact origin is accepted ("*" or a URL with a path would widen who receives our messages).
  if (origin !== parentOrigin || origin === 'null') return null;
  return { field, channel, parentOrigin };
}
