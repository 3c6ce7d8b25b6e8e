// The other ways to pay's part of the view machine: a way to pay chosen from the list, and the toggle back to the list
// ("Choose another way to pay"). Loaded on demand (issue 10: not in the card view's download): only a checkout with a
// wallet offered or saved methods (those it has, or a card it may save) has a list, so a card-only guest never imports it.
import { changeView, hasOtherWays } from '../checkout.machine.ts';
import type { MachinePart, OtherWaysActionName, OtherWaysGuardName } from '../checkout.types.ts';

export const otherWaysPart: MachinePart<OtherWaysGuardName, OtherWaysActionName> = {
  transitions: {
    ready: {
      SELECT_OPTION: [{ guard: 'optionUsable', actions: ['openOption'] }],
      SHOW_OPTIONS: [{ guard: 'hasOtherWays', actions: ['openOptionList'] }],
    },
  },
  guards: {
    optionUsable: (state, event) =>
      event.type === 'SELECT_OPTION' && state.options.some((entry) => entry.id === event.option && entry.status === 'ready'),
    hasOtherWays: (state) => state.view !== 'options' && hasOtherWays(state),
  },
  actions: {
    openOption: (state, event, emit) => {
      if (event.type !== 'SELECT_OPTION') return state;
      emit({ type: 'tell', event: 'paymentOptionSelected', payload: { paymentOption: event.option } });
      return changeView(state, event.option, emit);
    },
    openOptionList: (state, _, emit) =>
      changeView({ ...state, editing: false }, state.savedMethods.length > 0 ? 'methods' : 'options', emit),
  },
};
