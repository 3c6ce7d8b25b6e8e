// The sheet: header (view heading and the sheet's message), the active view, the "Choose another way to pay" toggle,
// a retry and the loading overlay. The card view is part of this module (it is the usual first view); every other
// view is imported on demand.
import { lazy, Suspense, type ReactElement } from 'react';
import { connectRoot } from '../../machine/checkout.connect.ts';
import { CardView } from '../card/card-view.tsx';
import { useCheckoutContext } from '../checkout-context.ts';
import { SheetHeader } from './sheet-header.tsx';

const OptionsView = lazy(() => import('../options/options-view.tsx'));
const ChallengeModal = lazy(() => import('../three-d-secure/challenge-modal.tsx'));
const MethodsView = lazy(() => import('../methods/methods-view.tsx'));
const DeleteConfirmation = lazy(() => import('../delete-confirmation/delete-confirmation.tsx'));

export function Sheet(): ReactElement {
  const { runtime, state, t, locale, direction } = useCheckoutContext();
  const root = connectRoot(state, t);
  const { view } = root;
  // A wallet's view, once its wallet has loaded (src/wallets/registry.ts); none for every other view.
  const WalletView = view === null ? null : (runtime?.walletView(view) ?? null);
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
      data-view={view ?? undefined}
      aria-busy={root.busy}
    >
      <SheetHeader root={root} />
      {root.cardMounted && <CardView active={view === 'card'} />}
      {/* A view whose code is still on its way shows the overlay (which hides the heading), not its heading over nothing. */}
      <Suspense fallback={root.loadingText === null && loading}>
        {view === 'options' && <OptionsView />}
        {view === 'methods' && <MethodsView />}
        {view === 'delete-confirmation' && <DeleteConfirmation />}
      </Suspense>
      {WalletView !== null && <WalletView />}
      {root.toggleText !== null && (
        <button type="button" className="kassa-checkout__toggle" onClick={() => runtime?.dispatch({ type: 'SHOW_OPTIONS' })}>
          {root.toggleText}
        </button>
      )}
      {root.retryText !== null && (
        <button type="button" className="kassa-checkout__retry" onClick={() => runtime?.dispatch({ type: 'RETRY' })}>
          {root.retryText}
        </button>
      )}
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
