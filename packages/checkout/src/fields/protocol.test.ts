import { describe, expect, it } from 'vitest';
import { createFrameRouter, frameUrl, parseFrameMessage, type FrameMessage } from './protocol.ts';
import type { FieldName } from '../machine/checkout.types.ts';

const assetsOrigin = 'http://127.0.0.1:8090';
const channel = 'c0ffee';
const numberWindow = { name: 'number frame' };
const cvvWindow = { name: 'cvv frame' };
const windows: Partial<Record<FieldName, object>> = { number: numberWindow, cvv: cvvWindow };

function router(): { route: ReturnType<typeof createFrameRouter>; received: Array<[FieldName, FrameMessage]> } {
  const received: Array<[FieldName, FrameMessage]> = [];
  const route = createFrameRouter({
    assetsOrigin,
    channel,
    frameWindowOf: (field) => windows[field] ?? null,
    onMessage: (field, message) => received.push([field, message]),
  });
  return { route, received };
}

const state = { isEmpty: false, isValid: true, isPotentiallyValid: true, isFocused: true };
const stateMessage = { source: 'kassa-hosted-fields', channel, type: 'state', field: 'number', event: 'input', state };

describe('frame message routing', () => {
  it('accepts a well-formed message from the right frame on the right origin and channel', () => {
    const { route, received } = router();
    route({ origin: assetsOrigin, source: numberWindow, data: stateMessage });
    // A report is handed on unread: the typing part parses it (reports.ts).
    expect(received).toEqual([['number', { type: 'report', field: 'number', data: stateMessage }]]);
    const ready = { source: 'kassa-hosted-fields', channel, type: 'ready', field: 'cvv' };
    route({ origin: assetsOrigin, source: cvvWindow, data: ready });
    expect(received.at(-1)).toEqual(['cvv', { type: 'ready', field: 'cvv' }]);
  });

  it("takes a report from the frame of the field it names, the brands and the BIN from the number's", () => {
    const { route, received } = router();
    const brands = { source: 'kassa-hosted-fields', channel, type: 'cardTypeChange', cards: [] };
    route({ origin: assetsOrigin, source: cvvWindow, data: brands });
    route({ origin: assetsOrigin, source: numberWindow, data: { ...stateMessage, field: 'cvv' } });
    route({ origin: assetsOrigin, source: cvvWindow, data: { ...stateMessage, field: 'number' } });
    expect(received).toEqual([]);
    route({ origin: assetsOrigin, source: numberWindow, data: brands });
    route({ origin: assetsOrigin, source: cvvWindow, data: { ...stateMessage, field: 'cvv' } });
    expect(received).toEqual([
      ['number', { type: 'report', field: 'number', data: brands }],
      ['cvv', { type: 'report', field: 'cvv', data: { ...stateMessage, field: 'cvv' } }],
    ]);
  });

  it('ignores messages from another origin', () => {
    const { route, received } = router();
    route({ origin: 'http://evil.example', source: numberWindow, data: stateMessage });
    route({ origin: 'http://127.0.0.1:8091', source: numberWindow, data: stateMessage });
    expect(received).toEqual([]);
  });

  it('ignores messages whose source is not the frame of the field they speak for', () => {
    const { route, received } = router();
    route({ origin: assetsOrigin, source: cvvWindow, data: stateMessage });
    route({ origin: assetsOrigin, source: { name: 'some window' }, data: stateMessage });
    route({ origin: assetsOrigin, source: null, data: stateMessage });
    // Only the number frame may answer a tokenization.
    route({
      origin: assetsOrigin,
      source: cvvWindow,
      data: {
        source: 'kassa-hosted-fields',
        channel,
        type: 'tokenizeFailed',
        requestId: 'r',
        error: { code: 'network', message: 'x' },
      },
    });
    expect(received).toEqual([]);
  });

  it("takes a frame's answer to a sync from that field's own frame only", () => {
    const { route, received } = router();
    const synced = { source: 'kassa-hosted-fields', channel, type: 'synced', field: 'cvv' };
    route({ origin: assetsOrigin, source: numberWindow, data: synced });
    route({ origin: assetsOrigin, source: cvvWindow, data: { ...synced, field: 'pin' } });
    expect(received).toEqual([]);
    route({ origin: assetsOrigin, source: cvvWindow, data: synced });
    expect(received).toEqual([['cvv', { type: 'synced', field: 'cvv' }]]);
  });

  it('ignores another channel, another protocol and malformed payloads', () => {
    const { route, received } = router();
    for (const data of [
      { ...stateMessage, channel: 'other' },
      { ...stateMessage, source: 'someone-else' },
      { ...stateMessage, type: 'exfiltrate' },
      { source: 'kassa-hosted-fields', channel, type: 'ready', field: 'pin' },
      'a string',
      null,
    ]) {
      route({ origin: assetsOrigin, source: numberWindow, data });
    }
    expect(received).toEqual([]);
  });
});

describe('frame messages', () => {
  it('passes a tokenization answer on unread (submit.ts reads it)', () => {
    for (const type of ['tokenized', 'tokenizeFailed']) {
      const data = { source: 'kassa-hosted-fields', channel, type, requestId: 'r1', result: { nonce: 'n' } };
      expect(parseFrameMessage(data, channel)).toEqual({ type: 'tokenizeAnswer', data });
    }
  });

  it('builds the frame URL with the field, channel and parent origin in the fragment', () => {
    const url = frameUrl('http://127.0.0.1:8090/', 'cvv', channel, 'http://shop.example');
    const [base, fragment] = url.split('#');
    expect(base).toBe('http://127.0.0.1:8090/hosted-fields/frame.html');
    expect(JSON.parse(decodeURIComponent(fragment ?? ''))).toEqual({
      field: 'cvv',
      channel,
      parentOrigin: 'http://shop.example',
    });
  });
});
