// <Checkout>: the root component. React only mounts: the runtime (created in an effect, so never during a server
// render) owns the machine, the frames and the listeners, and is destroyed on unmount.
import { useEffect, useMemo, useRef, useState, useSyncExternalStore, type ReactElement } from 'react';
import { createTranslator, resolveLocale } from './i18n/i18n.ts';
import { initialState } from './machine/checkout.machine.ts';
import { connectRoot } from './machine/checkout.connect.ts';
import type { CheckoutSettings } from './machine/checkout.types.ts';
import { CheckoutRuntime, type CheckoutCallbacks } from './runtime/checkout-runtime.ts';
import { settingsFrom, type CheckoutOptions } from './runtime/options.ts';
import { CardView } from './views/card/card-view.tsx';
import { CheckoutContext } from './views/checkout-context.ts';

export interface CheckoutProps extends CheckoutCallbacks {
  /** The client token your server generated (base64 JSON). */
  readonly authorization: string;
  readonly options?: CheckoutOptions;
}

const noSubscription = (): (() => void) => () => {};

export function Checkout(props: CheckoutProps): ReactElement {
  const { authorization, options } = props;
  // Latest handlers without re-creating the runtime when the parent passes new closures.
  const callbacks = useRef<CheckoutCallbacks>(props);
  useEffect(() => {
    callbacks.current = props;
  });

  const locale = resolveLocale(options?.locale);
  const t = useMemo(() => createTranslator(locale), [locale]);
  // Settings are compared by value: an inline `options={{...}}` object does not restart the checkout.
  const { cardholderName, clearFieldsAfterTokenization } = settingsFrom(options);
  const settings = useMemo<CheckoutSettings>(
    () => ({ cardholderName, clearFieldsAfterTokenization }),
    [cardholderName, clearFieldsAfterTokenization],
  );
  const loadingState = useMemo(() => initialState(settings), [settings]);

  const [runtime, setRuntime] = useState<CheckoutRuntime | null>(null);
  useEffect(() => {
    // A new token or new settings start over cleanly (StrictMode's double effect included).
    const created = new CheckoutRuntime({ authorization, settings, translate: t, callbacks: () => callbacks.current });
    setRuntime(created);
    created.start();
    return () => {
      created.destroy();
      setRuntime((current) => (current === created ? null : current));
    };
  }, [authorization, settings, t]);

  const state = useSyncExternalStore(
    runtime?.subscribe ?? noSubscription,
    runtime?.getState ?? (() => loadingState),
    () => loadingState,
  );

  const root = connectRoot(state, t);
  const context = useMemo(() => (runtime === null ? null : { runtime, state, t }), [runtime, state, t]);

  return (
    <CheckoutContext.Provider value={context}>
      <div className="kassa-checkout" data-kassa-checkout="" data-state={root.dataState} aria-busy={root.busy}>
        {context !== null && root.showCardView && <CardView />}
        {root.loadingText !== null && (
          <div className="kassa-checkout__loading" role="status">
            <span className="kassa-checkout__spinner" aria-hidden="true" />
            <span>{root.loadingText}</span>
          </div>
        )}
        <div className="kassa-checkout__alert" role="alert">
          {root.alert}
        </div>
        {root.retryText !== null && runtime !== null && (
          <button type="button" className="kassa-checkout__retry" onClick={() => runtime.retry()}>
            {root.retryText}
          </button>
        )}
      </div>
    </CheckoutContext.Provider>
  );
}
