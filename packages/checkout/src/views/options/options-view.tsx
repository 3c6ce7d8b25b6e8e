// The option list ("Choose a way to pay", or "Other ways to pay" under the saved methods): one button per way to
// pay. Loaded on demand: a checkout with only the card never downloads it.
import { useCallback, useRef, type ReactElement } from 'react';
import { connectOptions } from '../../machine/options.connect.ts';
import { useCheckoutContext, useFocusTarget } from '../checkout-context.ts';
import { OptionIcon } from './option-icons.tsx';

/** `labelledBy`: the heading above the list (the sheet's heading, or "Other ways to pay" under the saved methods). */
export function OptionList({ labelledBy }: { readonly labelledBy?: string }): ReactElement {
  const { state, runtime, t, headingId } = useCheckoutContext();
  const list = useRef<HTMLUListElement>(null);
  useFocusTarget(
    'options',
    useCallback(() => list.current?.querySelector<HTMLButtonElement>('button:not([disabled])')?.focus(), []),
  );
  const view = connectOptions(state, t);
  return (
    <ul ref={list} className="kassa-options" aria-labelledby={labelledBy ?? headingId}>
      {view.items.map((item) => {
        const noteId = `${headingId}-${item.id}-note`;
        return (
          <li key={item.id}>
            <button
              type="button"
              className="kassa-option"
              data-option={item.id}
              disabled={item.disabled}
              aria-describedby={item.note !== null ? noteId : undefined}
              onClick={() => runtime?.dispatch({ type: 'SELECT_OPTION', option: item.id })}
            >
              <OptionIcon option={item.id} />
              <span className="kassa-option__label">{item.label}</span>
              {item.note !== null && (
                <span id={noteId} className="kassa-option__note">
                  {item.note}
                </span>
              )}
            </button>
          </li>
        );
      })}
    </ul>
  );
}

export default OptionList;
