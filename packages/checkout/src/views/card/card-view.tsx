// The card form: a function of the machine's state. It mounts the frames into its containers and forwards label
// clicks; every decision (which fields, which messages, when) is the machine's.
import { useEffect, useId, useRef, type ReactElement } from 'react';
import { BrandIcon } from '../../brands/brand-icons.tsx';
import { connectCard } from '../../machine/checkout.connect.ts';
import type { FieldName } from '../../machine/checkout.types.ts';
import { useCheckoutContext } from '../checkout-context.ts';
import { CardField } from './card-field.tsx';

export function CardView(): ReactElement {
  const { state, runtime, t } = useCheckoutContext();
  const baseId = useId();
  const idOf = (field: FieldName, part: 'label' | 'error'): string => `${baseId}-${field}-${part}`;
  const containers = useRef(new Map<FieldName, HTMLElement>());
  const fieldsKey = state.visibleFields.join(' ');

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

  useEffect(() => {
    const mounts = fieldsKey
      .split(' ')
      .flatMap((name) => {
        const field = name as FieldName;
        const container = containers.current.get(field);
        return container === undefined ? [] : [{ field, container, describedBy: `${baseId}-${field}-error` }];
      });
    return runtime.mountFields(mounts);
  }, [runtime, fieldsKey, baseId]);

  const view = connectCard(state, t);

  return (
    <div className="kassa-card" role="group" aria-label={view.heading} inert={view.inert}>
      <ul className="kassa-brands" aria-label={view.acceptedCardsLabel} data-detected={view.brandDetected ? '' : undefined}>
        {view.brands.map((brand) => (
          <li key={brand.id} className="kassa-brand" data-brand={brand.id} data-active={brand.active ? '' : undefined}>
            <BrandIcon brand={brand.id} title={brand.name} />
          </li>
        ))}
      </ul>
      <div className="kassa-card__fields">
        {view.fields.map((props) => (
          <CardField
            key={props.field}
            {...props}
            labelId={idOf(props.field, 'label')}
            errorId={idOf(props.field, 'error')}
            containerRef={containerRef(props.field)}
            onLabelClick={() => runtime.focusField(props.field)}
          />
        ))}
      </div>
      <p className="kassa-card__selected" role="status">
        {view.selectedText}
      </p>
    </div>
  );
}
