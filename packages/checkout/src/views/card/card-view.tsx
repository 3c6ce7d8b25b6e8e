// The card form: a function of the machine's state. It mounts the frames into its containers and forwards label
// clicks; every decision (which fields, which messages, when) is the machine's. It stays mounted (hidden) while
// another view is shown, so what the shopper typed survives a look at the other ways to pay.
import { useCallback, useId, useLayoutEffect, useRef, type ReactElement } from 'react';
import { connectCard } from '../../machine/checkout.connect.ts';
import type { FieldName } from '../../machine/checkout.types.ts';
import { useCheckoutContext, useFocusTarget } from '../checkout-context.ts';
import { CardField } from './card-field.tsx';

export function CardView({ active }: { readonly active: boolean }): ReactElement {
  const { state, runtime, t } = useCheckoutContext();
  const baseId = useId();
  const idOf = (field: FieldName, part: 'label' | 'error'): string => `${baseId}-${field}-${part}`;
  const containers = useRef(new Map<FieldName, HTMLElement>());
  const mountable = runtime?.canMountFields() === true;

  // One stable ref callback per field, so React does not detach and re-attach containers on every render.
  const refCallbacks = useRef(new Map<FieldName, (element: HTMLDivElement | null) => void>());
  const containerRef = (field: FieldName): ((element: HTMLDivElement | null) => void) => {
    let callback = refCallbacks.current.get(field);
    if (callback === undefined) {
      callback = (element) => {
        if (element === null) containers.current.delete(field);
        else containers.current.set(field, element);
      };
      refCallbacks.current.set(field, callback);
    }
    return callback;
  };

  // Every field drawn gets its frame; a field the configuration then hides leaves with its container (fields are only
  // ever dropped, never added: nothing to mount again). Mounted before the browser paints (as the runtime is made).
  useLayoutEffect(() => {
    if (runtime === null || !mountable) return undefined;
    // The number's frame first: the frames' renderer makes them ready one after another, and the number is what the
    // shopper types first (the form opens with it, connectCard).
    const order = (field: FieldName) => (field === 'number' ? 0 : 1);
    const mounts = [...containers.current]
      .sort(([a], [b]) => order(a) - order(b))
      .map(([field, container]) => ({
        field,
        container,
        describedBy: `${baseId}-${field}-error`,
      }));
    return runtime.mountFields(mounts);
  }, [runtime, mountable, baseId]);

  const view = connectCard(state, t);
  // The first field that takes typing (the number's, while the other frames load: a focus sent to one of them would
  // wait for it, then take focus from the field the shopper is typing in); none before the form opens.
  const first = view.fields.find((field) => !field.inert)?.field;
  const focusFirst = useCallback(() => {
    if (first !== undefined) runtime?.focusField(first);
  }, [runtime, first]);
  useFocusTarget('card', first === undefined ? null : focusFirst);

  return (
    <div className="kassa-card" role="group" aria-label={view.heading} inert={view.inert} hidden={!active}>
      <div className="kassa-card__fields">
        {view.fields.map((props) => (
          <CardField
            key={props.field}
            {...props}
            brand={props.field === 'number' ? view.detected : null}
            labelId={idOf(props.field, 'label')}
            errorId={idOf(props.field, 'error')}
            containerRef={containerRef(props.field)}
            onLabelClick={() => runtime?.focusField(props.field)}
          />
        ))}
      </div>
      {view.saveCard !== null && (
        <label className="kassa-save-card" inert={view.fields.some((field) => field.inert)}>
          <input
            type="checkbox"
            checked={view.saveCard.checked}
            onChange={(event) => runtime?.dispatch({ type: 'SET_SAVE_CARD', save: event.currentTarget.checked })}
          />
          <span>{view.saveCard.label}</span>
        </label>
      )}
    </div>
  );
}
