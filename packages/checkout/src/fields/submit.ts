// A submit's work in the sandbox's frames, the checkout's side of it: the frames' settling (each asked to `sync`, its
// reports sent before then in) and the card's tokenization (the `tokenize` request to the number frame, its answer
// matched by request id and read field by field, the gateway's error answer the frame passes on read by
// http-failures.ts, no answer in time a time-out). hosted-fields.ts imports it once the shopper types in a card field,
// as the number frame imports its own side of the tokenization then (a Pay before imports it at once): a card can be
// typed without it, so it is not in the card view's download (issue 10).
import { isFieldName, type FieldName, type TokenizeFailure } from '../machine/checkout.types.ts';
import { isRecord } from '../provider/json.ts';
import { randomId, REMOVED, type TokenizeOutcome } from './hosted-fields.ts';
import { parseTokenizeResult, str } from '../provider/method-result.ts';
import type { ParentMessage, TokenizeRequest } from './protocol.ts';

/** HostedFields' `settle` and `tokenize` (each ended by its deadline, a `Date.now()` time), and the frames' answers. */
export interface FramesSubmit {
  /** True once every field's frame answered, false when the deadline came first. */
  settle(fields: readonly FieldName[], deadline: number): Promise<boolean>;
  /** A field's frame answered `sync` (its window checked): `synced` (ok), or `syncFailed`, which ends the settle false. */
  synced(field: FieldName, ok: boolean): void;
  /** The outcome the sandbox provider hands on (a card saved on the way marked so); never rejects. */
  tokenize(request: Omit<TokenizeRequest, 'requestId'>, deadline: number): Promise<TokenizeOutcome>;
  /** A tokenization's answer (`tokenized`, `tokenizeFailed`) from the number frame, its origin and window checked. */
  answer(data: Readonly<Record<string, unknown>>): void;
  /** The frames are removed: a tokenization under way settles as a network failure. */
  teardown(): void;
}

function parseFailure(value: unknown): TokenizeFailure | null {
  if (!isRecord(value) || typeof value.code !== 'string') return null;
  const fields = Array.isArray(value.fields) ? value.fields.filter(isFieldName) : undefined;
  const answer = value.answer;
  return {
    code: value.code,
    message: str(value.message),
    ...(fields ? { fields } : {}),
    // The body stays untrusted: the provider reads it field by field (provider/http-failures.ts).
    ...(isRecord(answer) && typeof answer.status === 'number'
      ? { answer: { status: answer.status, retryAfter: str(answer.retryAfter) || null, body: answer.body } }
      : {}),
  };
}

/** A tokenization's answer read: its request id and outcome, or null for anything that is not exactly one. */
export function parseTokenizeAnswer(
  data: Readonly<Record<string, unknown>>,
): { readonly requestId: string; readonly outcome: TokenizeOutcome } | null {
  const { requestId } = data;
  if (typeof requestId !== 'string') return null;
  if (data.type === 'tokenized') {
    const result = parseTokenizeResult(data.result);
    return result ? { requestId, outcome: { ok: true, result } } : null;
  }
  const error = data.type === 'tokenizeFailed' ? parseFailure(data.error) : null;
  return error ? { requestId, outcome: { ok: false, error } } : null;
}

/**
 * What the gateway's error answer stands for, imported now (not in the card view's download); if it cannot be, the
 * shop's own origin is unreachable too: a network failure. A card saved on the way is a saved method from now on (the
 * gateway's answer does not say so itself); no subscription charges it yet, as the result already says
 * (NEW_METHOD_DEFAULTS).
 */
async function read(outcome: TokenizeOutcome, vault: boolean): Promise<TokenizeOutcome> {
  const answer = outcome.ok ? undefined : outcome.error.answer;
  if (answer === undefined) return outcome.ok && vault ? { ok: true, result: { ...outcome.result, vaulted: true } } : outcome;
  const error = await import('../provider/http-failures.ts').then(
    (failures) => failures.tokenizeFailure(answer),
    () => ({ code: 'network', message: `The gateway answered ${answer.status}.` }),
  );
  return { ok: false, error };
}

/** `send` posts to a field's frame (queued until it is ready). */
export function createFramesSubmit(send: (field: FieldName, message: ParentMessage) => void): FramesSubmit {
  const pending = new Map<string, (outcome: TokenizeOutcome) => void>();
  /** The settle() under way: the fields that have not answered yet. */
  let settling: { readonly waiting: Set<FieldName>; readonly done: (heard: boolean) => void } | null = null;

  function settle(requestId: string, outcome: TokenizeOutcome): void {
    const resolve = pending.get(requestId);
    pending.delete(requestId);
    resolve?.(outcome);
  }

  return {
    settle(fields, deadline) {
      return new Promise<boolean>((resolve) => {
        // Its time-out goes with it: left running, it would end a later settle (Pay pressed again meanwhile) early.
        const done = (heard: boolean): void => {
          clearTimeout(timer);
          if (settling === current) settling = null;
          resolve(heard);
        };
        const current = { waiting: new Set(fields), done };
        settling = current;
        const timer = setTimeout(done, deadline - Date.now(), false);
        if (fields.length === 0) done(true);
        for (const field of fields) send(field, { type: 'sync' });
      });
    },
    synced(field, ok) {
      settling?.waiting.delete(field);
      if (!ok || settling?.waiting.size === 0) settling?.done(ok);
    },
    tokenize(request, deadline) {
      const requestId = randomId();
      const answered = new Promise<TokenizeOutcome>((resolve) => {
        const timer = setTimeout(() => {
          settle(requestId, { ok: false, error: { code: 'timeout', message: 'Tokenization timed out.' } });
        }, deadline - Date.now());
        pending.set(requestId, (outcome) => {
          clearTimeout(timer);
          resolve(outcome);
        });
        send('number', { type: 'tokenize', requestId, ...request });
      });
      return answered.then((outcome) => read(outcome, request.vault === true));
    },
    answer(data) {
      const answer = parseTokenizeAnswer(data);
      if (answer !== null) settle(answer.requestId, answer.outcome);
    },
    teardown() {
      for (const id of [...pending.keys()]) settle(id, REMOVED);
    },
  };
}
