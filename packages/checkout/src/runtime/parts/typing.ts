// The typing part's runtime side: what its machine actions ask of the checkout once a card can be typed (the
// integrator's card:* events for a field's report, an empty field's blur settling). Imported with the machine's
// typing part as the first frame announces itself ready (issue 10: not in the card view's download).
import { typingPart } from '../../machine/parts/typing.ts';
import type { RuntimePart } from './part.ts';

export const typing: RuntimePart = {
  machine: typingPart,
  run(effect, host) {
    if (effect.type === 'cardFieldEvent') {
      const state = host.getState();
      const fields = Object.fromEntries(state.visibleFields.map((field) => [field, state.fields[field].state]));
      host.emit(`card:${effect.name}`, { emittedBy: effect.field, fields, cards: state.cards });
    } else if (effect.type === 'scheduleBlurSettle')
      host.later(host.options.blurSettleMs ?? 300, () => host.send({ type: 'BLUR_SETTLED', field: effect.field }));
  },
};
