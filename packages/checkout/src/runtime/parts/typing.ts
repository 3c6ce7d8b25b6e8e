// The typing part's runtime side: the frames' reports once a card can be typed (parsed here, then a field's state and
// the brands passed to the machine, Enter and the BIN told to the integrator), and what its machine actions ask of the
// checkout (the integrator's card:* events for a field's report, an empty field's blur settling). Imported with the
// machine's typing part as the first frame announces itself ready (issue 10: not in the card view's download).
import type { FrameMessage } from '../../fields/protocol.ts';
import { parseReport } from '../../fields/reports.ts';
import { typingPart } from '../../machine/parts/typing.ts';
import type { PartHost, RuntimePart } from './part.ts';

export interface TypingPart extends RuntimePart {
  /** A frame's report, passed on in the order the frames sent them; one that does not parse is dropped. */
  report(message: Extract<FrameMessage, { type: 'report' }>, host: PartHost): void;
}

export const typing: TypingPart = {
  machine: typingPart,
  run(effect, host) {
    if (effect.type === 'cardFieldEvent') {
      const state = host.getState();
      const fields = Object.fromEntries(state.visibleFields.map((field) => [field, state.fields[field].state]));
      host.emit(`card:${effect.name}`, { emittedBy: effect.field, fields, cards: state.cards });
    } else if (effect.type === 'scheduleBlurSettle')
      host.later(host.options.blurSettleMs ?? 300, () => host.send({ type: 'BLUR_SETTLED', field: effect.field }));
  },
  report({ field, data }, host) {
    const report = parseReport(field, data);
    switch (report?.type) {
      case 'state':
        // Typed: a field holds something (its frame also reports it, as `validate`, when only its expected size changes).
        if (!report.state.isEmpty) void host.deviceData();
        host.send({ ...report, type: 'FIELD_STATE' });
        return;
      case 'cardTypeChange':
        host.send({ ...report, type: 'CARD_TYPE_CHANGED' });
        return;
      case 'inputSubmitRequest':
        host.emit('card:inputSubmitRequest', { field }, host.callbacks().onInputSubmitRequest);
        return;
      case 'binAvailable':
        host.emit('card:binAvailable', { bin: report.bin }, host.callbacks().onBinAvailable);
    }
  },
};
