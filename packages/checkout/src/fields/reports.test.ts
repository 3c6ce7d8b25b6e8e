import { describe, expect, it } from 'vitest';
import { parseReport } from './reports.ts';

const state = { isEmpty: false, isValid: true, isPotentiallyValid: true, isFocused: true };
const stateReport = { source: 'kassa-hosted-fields', channel: 'c0ffee', type: 'state', field: 'number', event: 'input', state };
const visa = { type: 'visa', niceType: 'Visa', code: { name: 'CVV', size: 3 } };

describe("a frame's reports", () => {
  it("parses a field's state, the brands, the BIN and Enter into the typing part's union", () => {
    expect(parseReport('number', stateReport)).toEqual({ type: 'state', field: 'number', event: 'input', state });
    // A report the frame made at the checkout's word (a CVV length, an emptied field): not the shopper's typing.
    expect(parseReport('number', { ...stateReport, event: 'validate' })).toEqual({
      type: 'state',
      field: 'number',
      event: 'validate',
      state,
    });
    expect(parseReport('number', { type: 'cardTypeChange', cards: [{ ...visa, pattern: [4] }] })).toEqual({
      type: 'cardTypeChange',
      cards: [visa],
    });
    expect(parseReport('number', { type: 'binAvailable', bin: '411111' })).toEqual({ type: 'binAvailable', bin: '411111' });
    expect(parseReport('cvv', { type: 'inputSubmitRequest', field: 'cvv' })).toEqual({
      type: 'inputSubmitRequest',
      field: 'cvv',
    });
  });

  it('drops a malformed report', () => {
    for (const data of [
      { ...stateReport, field: 'pin' },
      { ...stateReport, event: 'paste' },
      { ...stateReport, state: { ...state, isEmpty: 'no' } },
      { ...stateReport, state: null },
      { type: 'cardTypeChange', cards: [{ ...visa, code: { name: 'CVV' } }] },
      { type: 'cardTypeChange', cards: 'visa' },
      { type: 'binAvailable', bin: 411111 },
      { type: 'inputSubmitRequest' },
      { type: 'exfiltrate', field: 'number' },
    ])
      expect(parseReport('number', data)).toBeNull();
  });

  it('drops a report a frame makes for another field, and the brands or the BIN from any frame but the number', () => {
    expect(parseReport('cvv', stateReport)).toBeNull();
    expect(parseReport('number', { type: 'inputSubmitRequest', field: 'cvv' })).toBeNull();
    expect(parseReport('cvv', { type: 'cardTypeChange', field: 'cvv', cards: [visa] })).toBeNull();
    expect(parseReport('cvv', { type: 'binAvailable', field: 'cvv', bin: '411111' })).toBeNull();
  });
});
