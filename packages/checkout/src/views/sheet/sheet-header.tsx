// The sheet's top row: what the view is (the accepted brands on the card view, the heading of the option list, the
// saved methods or a wallet), and in the same place the sheet's message. Message and heading share one grid cell, so a message that
// appears takes space the sheet already has: nothing moves, and no empty line is reserved above the Pay button.
import { Suspense, useCallback, useRef, type ReactElement } from 'react';
import { BrandIcon } from '../../brands/brand-icons.tsx';
import { connectCard, optionsHeading, type RootProps } from '../../machine/checkout.connect.ts';
import { useCheckoutContext, useFocusTarget } from '../checkout-context.ts';
import { onDemand } from '../on-demand.ts';

// The saved methods' heading and Edit / Done come with the saved methods' code (the same module as their view).
const MethodsHeader = onDemand<{ readonly covered: boolean }>(() =>
  import('../methods/methods-view.tsx').then((module) => ({ default: module.MethodsHeader })),
);

export function SheetHeader({ root }: { readonly root: RootProps }): ReactElement {
  const { state, t, headingId } = useCheckoutContext();
  const alert = useRef<HTMLParagraphElement>(null);
  useFocusTarget(
    'alert',
    useCallback(() => alert.current?.focus(), []),
  );
  const covered = root.alert !== '' || root.statusText !== '';

  let content: ReactElement | null = null;
  if (root.view === 'card') {
    const card = connectCard(state, t);
    content = (
      <ul className="kassa-brands" aria-label={card.acceptedCardsLabel} data-detected={card.brandDetected ? '' : undefined}>
        {card.brands.map((brand) => (
          <li key={brand.id} className="kassa-brand" data-brand={brand.id} data-active={brand.active ? '' : undefined}>
            <BrandIcon brand={brand.id} title={brand.name} />
          </li>
        ))}
      </ul>
    );
  } else if (root.view !== null && root.view !== 'methods' && root.view !== 'delete-confirmation') {
    // The option list's heading, or a wallet's name.
    content = (
      <p id={headingId} className="kassa-heading" role="heading" aria-level={3}>
        {root.view === 'options' ? optionsHeading(state, t) : t(`option.${root.view}`)}
      </p>
    );
  }

  return (
    <div className="kassa-checkout__header">
      {root.view === 'methods' && (
        <Suspense fallback={null}>
          <MethodsHeader covered={covered} />
        </Suspense>
      )}
      {content !== null && (
        <div className="kassa-checkout__heading" data-covered={covered ? '' : undefined}>
          {content}
        </div>
      )}
      <p ref={alert} className="kassa-checkout__alert" role="alert" tabIndex={-1}>
        {root.alert}
      </p>
      <p className="kassa-checkout__selected" role="status">
        {root.alert === '' ? root.statusText : ''}
      </p>
    </div>
  );
}
