// The sheet: header (view heading and the sheet's message), the active view, the "Choose another way to pay" toggle,
// a retry and the loading overlay. The card view is part of this module (it is the usual first view); every other
// view is imported on demand.
import { Suspense, type ComponentType, type ReactElement } from 'react';
import { connectRoot } from '../../machine/checkout.connect.ts';
import type { ViewId } from '../../machine/checkout.types.ts';
import { CardView } from '../card/card-view.tsx';
import { useCheckoutContext } from '../checkout-context.ts';
import { onDemand } from '../on-demand.ts';
import { SheetHeader } from './sheet-header.tsx';

const ChallengeModal = onDemand(() => import('../three-d-secure/challenge-modal.tsx'));
/** The views other than the card's and the wallets' (those come with their wallet: the runtime's walletView). */
const VIEWS: Partial<Record<ViewId, ComponentType>> = {
  options: onDemand(() => import('../options/options-view.tsx')),
  methods: onDemand(() => import('../methods/methods-view.tsx')),
  'delete-confirmation': onDemand(() => import('../delete-confirmation/delete-confirmation.tsx')),
};

export function Sheet(): ReactElement {
  const { runtime, state, t, locale, direction } = useCheckoutContext();
  const root = connectRoot(state, t);
  const { view } = root;
  // The view's own component; a wallet's once its wallet has loaded (src/wallets/registry.ts); none for the card's.
  const View = view && (VIEWS[view] ?? runtime?.walletView(view));
  // The overlay: over the card form while it loads, over a view while its code downloads.
  const loading = (
    <div className="kassa-checkout__loading" role="status">
      <span className="kassa-checkout__spinner" aria-hidden="true" />
      <span>{t('sheet.loading')}</span>
    </div>
  );
  return (
    <div
      className="kassa-checkout"
      lang={locale}
      dir={direction}
      data-kassa-checkout=""
      data-state={root.dataState}
      data-view={view}
      aria-busy={root.busy}
    >
      <SheetHeader root={root} />
      {root.cardMounted && <CardView active={view === 'card'} />}
      {/* A view whose code is still on its way shows the overlay (which hides the heading), not its heading over nothing. */}
      <Suspense fallback={root.loadingText === null && loading}>{View && <View />}</Suspense>
      {root.toggleText !== null && (
        <button
          type="button"
          className="kassa-checkout__toggle"
          inert={root.dataState === 'submitting'}
          onClick={() => runtime?.dispatch({ type: 'SHOW_OPTIONS' })}
        >
          {root.toggleText}
        </button>
      )}
      {root.retryText !== null && (
        <button type="button" className="kassa-checkout__retry" onClick={() => runtime?.dispatch({ type: 'RETRY' })}>
          {root.retryText}
        </button>
      )}
      {/* While the dialog's code downloads, the header's status ("Processing your payment…", a spinner) is the sheet's. */}
      {state.challengeUrl !== null && (
        <Suspense fallback={null}>
          <ChallengeModal
            url={state.challengeUrl}
            title={t('threeDSecure.title')}
            onCancel={() => runtime?.cancelThreeDSecure()}
          />
        </Suspense>
      )}
      {root.loadingText !== null && loading}
    </div>
  );
}
