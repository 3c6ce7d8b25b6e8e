import type { ReactElement } from 'react';
import { BrandIcon } from '../../brands/brand-icons.tsx';
import type { BrandProps } from '../../machine/checkout.connect.ts';
import type { FieldName } from '../../machine/checkout.types.ts';

export interface CardFieldProps {
  readonly field: FieldName;
  /** Its frame is still loading (the card number's ready already): it takes no focus or click yet. */
  readonly inert: boolean;
  readonly label: string;
  /** Shown after the label for an optional field, e.g. "(optional)". */
  readonly optionalNote: string | null;
  readonly error: string | null;
  readonly focused: boolean;
  /** The detected brand, drawn inside the number field. */
  readonly brand: BrandProps | null;
  readonly labelId: string;
  readonly errorId: string;
  readonly containerRef: (element: HTMLDivElement | null) => void;
  readonly onLabelClick: () => void;
}

/**
 * One card field: a visible label (the input lives in a frame, so clicking the label asks the frame to focus),
 * the container the frame is mounted into, and a live message slot whose space is always reserved.
 */
export function CardField(props: CardFieldProps): ReactElement {
  const { field, error, brand } = props;
  return (
    <div
      className="kassa-field"
      data-field={field}
      data-invalid={error !== null ? '' : undefined}
      data-focused={props.focused ? '' : undefined}
      inert={props.inert}
    >
      {/* biome-ignore lint/a11y/noLabelWithoutControl lint/a11y/useKeyWithClickEvents: the input is in the gateway's frame (its own label names it); a click here only focuses that frame, the keyboard reaches the input directly */}
      <label id={props.labelId} className="kassa-field__label" onClick={props.onLabelClick}>
        {props.label}
        {props.optionalNote !== null && <span className="kassa-field__optional"> {props.optionalNote}</span>}
      </label>
      <div className="kassa-field__box" data-brand={brand?.id}>
        <div className="kassa-field__control" ref={props.containerRef} />
        {brand !== null && (
          <span className="kassa-field__brand">
            <BrandIcon brand={brand.id} title={brand.name} />
          </span>
        )}
      </div>
      <p id={props.errorId} className="kassa-field__error" aria-live="polite">
        {error ?? ''}
      </p>
    </div>
  );
}
