// What a frame reports of what is typed in it, parsed field by field into a closed union as the rest of the frame
// protocol is (protocol.ts), by the typing part that acts on it: imported as the first frame is ready, so not in the
// card view's download (issue 10). Anything else is dropped.
import type { CardCandidate, FieldName, FieldReport, FieldState } from '../machine/checkout.types.ts';
import { isRecord } from '../provider/json.ts';

export type FrameReport =
  | { readonly type: 'state'; readonly field: FieldName; readonly event: FieldReport; readonly state: FieldState }
  | { readonly type: 'cardTypeChange'; readonly cards: readonly CardCandidate[] }
  | { readonly type: 'binAvailable'; readonly bin: string }
  | { readonly type: 'inputSubmitRequest'; readonly field: FieldName };

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

/**
 * A report from the frame of `from` (which the router checked): a field's state and Enter from that field's own frame,
 * the brands and the BIN from the number's; null for anything else.
 */
export function parseReport(from: FieldName, data: Readonly<Record<string, unknown>>): FrameReport | null {
  switch (data.type) {
    case 'state': {
      const state = parseFieldState(data.state);
      const event = data.event;
      if (data.field !== from || state === null) return null;
      if (event !== 'focus' && event !== 'blur' && event !== 'input' && event !== 'validate') return null;
      return { type: 'state', field: from, event, state };
    }
    case 'inputSubmitRequest':
      return data.field === from ? { type: 'inputSubmitRequest', field: from } : null;
    case 'cardTypeChange': {
      if (from !== 'number' || !Array.isArray(data.cards)) return null;
      const cards = data.cards.map(parseCard);
      return cards.every((c) => c !== null) ? { type: 'cardTypeChange', cards } : null;
    }
    case 'binAvailable':
      return from === 'number' && typeof data.bin === 'string' ? { type: 'binAvailable', bin: data.bin } : null;
    default:
      return null;
  }
}
