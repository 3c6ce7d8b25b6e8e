import {
  compactExpirationDate,
  formatCardNumber,
  formatExpiryEdits,
  stripNumber,
  validateField,
  validateNumber,
} from './validate.ts';
import { MESSAGE_SOURCE, isFieldName } from './protocol.ts';
import type { FieldContext, FieldStep, Tokenizer } from './field.ts';
import { isEnvelope } from './field.ts';
import type { Envelope, SiblingMessage } from './protocol.ts';
import type { TokenizeRequest } from './tokenize.ts';

// What a hosted card field does with what is typed: its state reports to the parent, the number's and the expiry's
// formatting, the number's brands and BIN, the answers to the number field's tokenization, and (number field) that
// tokenization, whose request is tokenize.ts, imported once the shopper types in the number field. The entry of
// validate.js, with the card rules (validate.ts): field.ts imports it as the field announces itself ready and hands it
// each step (an event of the input or of the siblings' channel, a parent's message), those that happened before it
// was in first, in order.

/** Starts the field's steps; answers the function that takes each. */
export function startField({ field, channel, host, post, edits, focused }: FieldContext): (step: FieldStep) => void {
  const { input } = host;
  let cvvSize: 3 | 4 | null = null;
  let cardsKey = '';
  let lastBin = '';

  const tell = (message: SiblingMessage): void => host.siblings.postMessage({ source: MESSAGE_SOURCE, channel, ...message });

  const report = (event: 'focus' | 'blur' | 'input' | 'validate'): void => {
    const { isValid, isPotentiallyValid } = validateField(field, input.value, cvvSize);
    post({
      type: 'state',
      field,
      event,
      state: { isEmpty: input.value === '', isValid, isPotentiallyValid, isFocused: focused() },
    });
  };

  const onNumberChange = (): void => {
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

  /** An input: the expiry's edits formatted one by one as typed ("3", "2", "7": "03 / 27", not the whole's "32 / 7"). */
  const onInput = (): void => {
    const typed = edits.splice(0);
    if (field === 'cvv') input.value = input.value.replace(/\D/g, '');
    else if (field === 'expirationDate') {
      if (typed.length > 0) input.value = formatExpiryEdits(typed);
    } else if (field === 'number') {
      const formatted = formatCardNumber(input.value, input.selectionStart ?? input.value.length);
      if (formatted.value !== input.value) {
        input.value = formatted.value;
        input.setSelectionRange(formatted.caret, formatted.caret);
      }
      onNumberChange();
      loadTokenizer().catch(() => undefined);
    }
    report('input');
  };

  /** A message of this instance's sibling frames, or null. */
  const readSibling = (event: Event): Envelope<SiblingMessage> | null => {
    const data = (event as MessageEvent<unknown>).data;
    return isEnvelope<SiblingMessage>(data, channel) ? data : null;
  };

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
  // The card rules it checks the card with are these, lent to it (its script holds no copy of them).
  const rules = { validateNumber, validateField, stripNumber, compactExpirationDate, isFieldName };
  const tokenizeCard = (request: TokenizeRequest): Promise<void> =>
    loadTokenizer().then(
      ({ tokenize }) => tokenize(request, { host, input, post, tell, readSibling, rules }),
      () =>
        post({
          type: 'tokenizeFailed',
          requestId: request.requestId,
          error: { code: 'network', message: 'The tokenization script could not be loaded.' },
        }),
    );

  return ([kind, data]) => {
    if (kind === 'event') {
      switch (data.type) {
        case 'input':
          onInput();
          break;
        case 'focus':
        case 'blur':
          report(data.type);
          break;
        case 'message': {
          // The other fields answer the number field's tokenization (tokenize.ts) with their values.
          const message = readSibling(data);
          if (
            message?.type === 'collect' &&
            field !== 'number' &&
            Array.isArray(message.fields) &&
            message.fields.includes(field)
          ) {
            tell({ type: 'value', requestId: message.requestId, field, value: input.value });
          }
          break;
        }
      }
      return;
    }
    switch (data.type) {
      case 'setCvvSize':
        if (field === 'cvv') {
          cvvSize = data.size === 3 || data.size === 4 ? data.size : null;
          input.maxLength = cvvSize ?? 4;
          report('validate');
        }
        break;
      case 'clear':
        // field.ts emptied the input as the message came.
        if (field === 'number') onNumberChange();
        report('validate');
        break;
      case 'sync':
        // After the reports of what was typed before it (handed here in order).
        post({ type: 'synced', field });
        break;
      case 'tokenize':
        if (field === 'number') void tokenizeCard(data);
        break;
    }
  };
}
