// The saved methods: a radio group (native radios: arrow keys, Space and the checked state are announced for free) and
// the other ways to pay under the list; in the sheet's header row, "Paying with Card" once one is chosen and the vault
// manager's Edit / Done. In edit mode each method is a delete button; one a subscription charges is disabled and says why.
import { useCallback, useId, useRef, type ReactElement } from 'react';
import { connectMethods } from '../../machine/methods.connect.ts';
import { useCheckoutContext, useFocusTarget } from '../checkout-context.ts';
import { OptionIcon } from '../options/option-icons.tsx';
import { OptionList } from '../options/options-view.tsx';

export function MethodsView(): ReactElement {
  const { state, runtime, t, headingId } = useCheckoutContext();
  const root = useRef<HTMLDivElement>(null);
  const otherWaysId = useId();
  const view = connectMethods(state, t);
  // Focus: the method just asked about (back from the delete confirmation), else the chosen radio, else the first.
  const pendingNonce = useRef<string | null>(null);
  pendingNonce.current = state.pendingDelete?.nonce ?? null;
  useFocusTarget(
    'methods',
    useCallback(() => {
      const element = root.current;
      if (element === null) return;
      const asked = pendingNonce.current;
      const target =
        (asked !== null ? element.querySelector<HTMLElement>(`[data-nonce="${CSS.escape(asked)}"]:not([disabled])`) : null) ??
        element.querySelector<HTMLElement>('input[type="radio"]:checked') ??
        element.querySelector<HTMLElement>('input[type="radio"], .kassa-method__delete:not([disabled])') ??
        // Every method locked (edit mode): Done, in the sheet's header row.
        element.parentElement?.querySelector<HTMLElement>('.kassa-methods__edit');
      target?.focus();
    }, []),
  );

  return (
    <div ref={root} className="kassa-methods" inert={view.inert} data-editing={view.editing ? '' : undefined}>
      {view.editing ? (
        <ul className="kassa-methods__list" aria-labelledby={headingId}>
          {view.methods.map((method) => {
            const reasonId = `${headingId}-${method.nonce}-locked`;
            return (
              <li key={method.nonce} className="kassa-method" data-locked={method.lockedReason !== null ? '' : undefined}>
                <button
                  type="button"
                  className="kassa-method__delete"
                  data-nonce={method.nonce}
                  aria-describedby={method.lockedReason !== null ? reasonId : undefined}
                  disabled={method.lockedReason !== null}
                  onClick={() => runtime?.dispatch({ type: 'ASK_DELETE', nonce: method.nonce })}
                >
                  {/* The name reads "Delete Visa ending in 1881, Expires 12/29": the visible text, after the action. */}
                  <span className="kassa-method__label">
                    <span className="kassa-visually-hidden">{method.deleteLabel} </span>
                    {method.label}
                  </span>
                  <span className="kassa-method__meta">
                    <span className="kassa-visually-hidden">, </span>
                    {method.detail}
                  </span>
                  <span className="kassa-method__delete-mark" aria-hidden="true">
                    ×
                  </span>
                </button>
                {method.lockedReason !== null && (
                  <p id={reasonId} className="kassa-method__locked">
                    {method.lockedReason}
                  </p>
                )}
              </li>
            );
          })}
        </ul>
      ) : (
        <div className="kassa-methods__list" role="radiogroup" aria-labelledby={headingId}>
          {view.methods.map((method) => (
            <label key={method.nonce} className="kassa-method" data-active={method.active ? '' : undefined}>
              <input
                type="radio"
                name={`${headingId}-method`}
                value={method.nonce}
                data-nonce={method.nonce}
                checked={method.active}
                onChange={() => runtime?.dispatch({ type: 'SELECT_METHOD', nonce: method.nonce })}
              />
              <span className="kassa-method__mark" data-option={method.option}>
                <OptionIcon option={method.option} />
              </span>
              <span className="kassa-method__label">{method.label}</span>
              <span className="kassa-method__meta">
                {method.detail}
                {method.isDefault && <span className="kassa-method__default"> · {t('methods.default')}</span>}
              </span>
            </label>
          ))}
        </div>
      )}
      {view.otherWaysHeading !== null && (
        <div className="kassa-methods__other">
          <p id={otherWaysId} className="kassa-heading kassa-heading--small" role="heading" aria-level={3}>
            {view.otherWaysHeading}
          </p>
          <OptionList labelledBy={otherWaysId} />
        </div>
      )}
    </div>
  );
}

/**
 * The saved methods' heading and Edit / Done, drawn by the sheet's header row (which keeps room for its message): the
 * heading takes the message's place, as the option list's does, so the list starts at the sheet's top with no empty
 * row above it. A message covers the heading, never Edit / Done.
 */
export function MethodsHeader({ covered }: { readonly covered: boolean }): ReactElement {
  const { state, runtime, t, headingId } = useCheckoutContext();
  const view = connectMethods(state, t);
  return (
    <>
      <div className="kassa-checkout__heading" data-covered={covered ? '' : undefined}>
        <p id={headingId} className="kassa-heading" role="heading" aria-level={3}>
          {view.heading}
        </p>
      </div>
      {view.editText !== null && (
        <button
          type="button"
          className="kassa-methods__edit"
          inert={view.inert}
          onClick={() => runtime?.dispatch({ type: view.editing ? 'DONE_EDITING' : 'EDIT_METHODS' })}
        >
          {view.editText}
        </button>
      )}
    </>
  );
}

export default MethodsView;
