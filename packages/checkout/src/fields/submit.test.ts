import { describe, expect, it, vi } from 'vitest';
import { REMOVED, SETTLE_TIMEOUT_MS } from './hosted-fields.ts';
import type { FieldName } from '../machine/checkout.types.ts';
import type { ParentMessage } from './protocol.ts';
import { createFramesSubmit, parseTokenizeAnswer } from './submit.ts';

const result = {
  nonce: 'tokencc_1',
  type: 'CreditCard',
  description: 'ending in 11',
  details: {
    bin: '411111',
    cardType: 'Visa',
    lastFour: '1111',
    lastTwo: '11',
    expirationMonth: '12',
    expirationYear: '2030',
    cardholderName: '',
  },
  binData: { debit: 'No' },
  threeDSecureInfo: null,
};

/**
 * A submit's module whose frames are this array: what each was sent, and the answer to give to the last request. A
 * settling has the deadline hosted-fields.ts gives it (SETTLE_TIMEOUT_MS), a tokenization 50 ms (not its 30 s), so the
 * time-out case runs on real timers.
 */
function setup() {
  const sent: ParentMessage[] = [];
  const sentTo: Array<[FieldName, ParentMessage['type']]> = [];
  const made = createFramesSubmit((field, message) => {
    sent.push(message);
    sentTo.push([field, message.type]);
  });
  const tokenization = {
    ...made,
    tokenize: (asked: Parameters<typeof made.tokenize>[0]) => made.tokenize(asked, Date.now() + 50),
    settle: (fields: readonly FieldName[]) => made.settle(fields, Date.now() + SETTLE_TIMEOUT_MS),
  };
  const lastId = () => {
    const last = sent.at(-1);
    return last?.type === 'tokenize' ? last.requestId : '';
  };
  const failed = (error: unknown) => tokenization.answer({ type: 'tokenizeFailed', requestId: lastId(), error });
  return { sent, sentTo, tokenization, lastId, failed };
}

const request = { authorizationFingerprint: 'fp', clientApiUrl: 'http://127.0.0.1:8090/x', fields: ['number'] } as const;

describe('a tokenization answer', () => {
  it('reads a result field by field', () => {
    expect(parseTokenizeAnswer({ type: 'tokenized', requestId: 'r1', result })).toMatchObject({
      requestId: 'r1',
      outcome: {
        ok: true,
        result: {
          nonce: 'tokencc_1',
          vaulted: false,
          details: { lastFour: '1111', cardholderName: null },
          binData: { debit: 'No' },
        },
      },
    });
    expect(parseTokenizeAnswer({ type: 'tokenized', requestId: 'r1', result: { nonce: '' } })).toBeNull();
    expect(parseTokenizeAnswer({ type: 'tokenized', result })).toBeNull();
  });

  it('carries a gateway answer a tokenization failed with, its body unread; an answer without a status is dropped', () => {
    const failed = (error: unknown) => parseTokenizeAnswer({ type: 'tokenizeFailed', requestId: 'r2', error });
    const body = { fieldErrors: [{ field: 'creditCard', fieldErrors: [{ field: 'number', code: '81703' }] }] };
    const answer = { status: 422, retryAfter: null, body };
    expect(failed({ code: 'gateway_answer', message: 'The gateway answered 422.', answer })).toEqual({
      requestId: 'r2',
      outcome: { ok: false, error: { code: 'gateway_answer', message: 'The gateway answered 422.', answer } },
    });
    expect(failed({ code: 'gateway_answer', message: '', answer: { status: 429, retryAfter: '3', body: null } })).toMatchObject({
      outcome: { error: { answer: { status: 429, retryAfter: '3', body: null } } },
    });
    expect(failed({ code: 'gateway_answer', message: '', answer: { status: '429', retryAfter: 3 } })).toEqual({
      requestId: 'r2',
      outcome: { ok: false, error: { code: 'gateway_answer', message: '' } },
    });
    expect(failed({ code: 'invalid_fields', message: 'bad', fields: ['cvv', 'pin'] })).toEqual({
      requestId: 'r2',
      outcome: { ok: false, error: { code: 'invalid_fields', message: 'bad', fields: ['cvv'] } },
    });
    expect(failed({ message: 'no code' })).toBeNull();
  });
});

describe('the tokenization', () => {
  it('asks the number frame, matches the answer by request id and reports no answer in time as a time-out', async () => {
    const { sent, sentTo, tokenization, lastId, failed } = setup();
    const pending = tokenization.tokenize(request);
    expect(sent).toEqual([{ type: 'tokenize', requestId: lastId(), ...request }]);
    expect(sentTo).toEqual([['number', 'tokenize']]);
    tokenization.answer({ type: 'tokenizeFailed', requestId: 'someone-else', error: { code: 'gateway', message: 'x' } });
    failed({ code: 'invalid_fields', message: 'bad', fields: ['cvv'] });
    await expect(pending).resolves.toEqual({ ok: false, error: { code: 'invalid_fields', message: 'bad', fields: ['cvv'] } });
    await expect(tokenization.tokenize(request)).resolves.toMatchObject({ ok: false, error: { code: 'timeout' } });
  });

  it("reads the gateway's error answer the number frame passed on, and passes the frame's own failures as they are", async () => {
    const { tokenization, failed } = setup();
    const answered = (status: number, body: unknown, retryAfter: string | null = null) => {
      const outcome = tokenization.tokenize(request);
      failed({ code: 'gateway_answer', message: `The gateway answered ${status}.`, answer: { status, retryAfter, body } });
      return outcome;
    };
    expect(await answered(429, null, '2')).toEqual({
      ok: false,
      error: { code: 'rate_limited', message: 'The gateway is rate limiting.', retryAfterMs: 2000 },
    });
    const duplicate = { fieldErrors: [{ field: 'creditCard', fieldErrors: [{ field: 'number', code: '81724' }] }] };
    expect(await answered(422, duplicate)).toMatchObject({ ok: false, error: { code: 'duplicate_payment_method' } });
    const outcome = tokenization.tokenize(request);
    failed({ code: 'network', message: 'The tokenization script could not be loaded.' });
    expect(await outcome).toEqual({
      ok: false,
      error: { code: 'network', message: 'The tokenization script could not be loaded.' },
    });
  });

  it('marks a card saved on the way as saved', async () => {
    const { tokenization, lastId } = setup();
    const saved = tokenization.tokenize({ ...request, vault: true });
    tokenization.answer({ type: 'tokenized', requestId: lastId(), result });
    await expect(saved).resolves.toMatchObject({ ok: true, result: { nonce: 'tokencc_1', vaulted: true } });
    const paid = tokenization.tokenize(request);
    tokenization.answer({ type: 'tokenized', requestId: lastId(), result });
    await expect(paid).resolves.toMatchObject({ ok: true, result: { vaulted: false } });
  });

  it('settles a tokenization under way as a network failure when the frames are removed', async () => {
    vi.useFakeTimers();
    try {
      const { tokenization } = setup();
      const pending = tokenization.tokenize(request);
      tokenization.teardown();
      await expect(pending).resolves.toEqual(REMOVED);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('the settling', () => {
  it('settles as not heard without a frame that does not answer in time, and as heard at once when there is nothing to ask', async () => {
    vi.useFakeTimers();
    try {
      const { sentTo, tokenization } = setup();
      const settled = vi.fn();
      void tokenization.settle(['number']).then(settled);
      expect(sentTo).toEqual([['number', 'sync']]);
      await vi.advanceTimersByTimeAsync(SETTLE_TIMEOUT_MS - 1);
      expect(settled).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(1);
      expect(settled).toHaveBeenCalledWith(false);
      await expect(tokenization.settle([])).resolves.toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it("waits for every answer of a second settle, not ended by the first one's time-out", async () => {
    vi.useFakeTimers();
    try {
      const { tokenization } = setup();
      const first = tokenization.settle(['number']);
      tokenization.synced('number', true);
      await first;
      await vi.advanceTimersByTimeAsync(SETTLE_TIMEOUT_MS / 2);
      const settled = vi.fn();
      void tokenization.settle(['number', 'cvv']).then(settled);
      // The first settle's time-out would fall here: the second still waits for the CVV, then ends on its answer.
      await vi.advanceTimersByTimeAsync(SETTLE_TIMEOUT_MS / 2);
      tokenization.synced('number', true);
      await vi.advanceTimersByTimeAsync(0);
      expect(settled).not.toHaveBeenCalled();
      tokenization.synced('cvv', true);
      await vi.advanceTimersByTimeAsync(0);
      expect(settled).toHaveBeenCalledWith(true);
    } finally {
      vi.useRealTimers();
    }
  });
});
