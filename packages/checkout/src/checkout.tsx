// <Checkout>: the root component. React only mounts: the runtime (created in an effect, so never during a server
// render) owns the machine, the frames and the listeners, and is destroyed on unmount.
import { useEffect, useId, useLayoutEffect, useMemo, useRef, useState, useSyncExternalStore, type ReactElement } from 'react';
import { createTranslator, directionOf, resolveLocale, type Translate, type Translations } from './i18n/i18n.ts';
import { useCatalogue } from './i18n/use-catalogue.ts';
import { initialState } from './machine/checkout.machine.ts';
import type { CheckoutSettings } from './machine/checkout.types.ts';
import type { ProviderClient } from './provider/provider.ts';
import { CheckoutRuntime } from './runtime/checkout-runtime.ts';
import type { CheckoutCallbacks } from './runtime/events.ts';
import { settingsFrom, translationsFrom, type CheckoutOptions } from './runtime/options.ts';
import { CheckoutContext } from './views/checkout-context.ts';
import { Sheet } from './views/sheet/sheet.tsx';

export interface CheckoutProps extends CheckoutCallbacks {
  /** The client token your server generated (base64 JSON). */
  readonly authorization: string;
  readonly options?: CheckoutOptions;
  /**
   * The provider client. Default: Kassa's sandbox gateway, from the token. For the real provider pass
   * `createBraintreeProvider(authorization)` from `@kassa/checkout/braintree` (braintree-web installed).
   */
  readonly provider?: ProviderClient;
}

const noSubscription = (): (() => void) => () => {};
/** While a locale's messages are on their way: the loading state, without words in the wrong language. */
const wordless: Translate = () => '';

export function Checkout(props: CheckoutProps): ReactElement {
  const { authorization, options, provider } = props;
  // Latest handlers without re-creating the runtime when the parent passes new closures.
  const callbacks = useRef<CheckoutCallbacks>(props);
  // A wallet reads its options when it loads (they cannot restart the checkout).
  const latestOptions = useRef(options);
  useEffect(() => {
    callbacks.current = props;
    latestOptions.current = options;
  });

  const loaded = useCatalogue(resolveLocale(options?.locale));
  // Overrides are compared by value too: an inline `translations={{...}}` object does not restart the checkout.
  const overridesKey = JSON.stringify(translationsFrom(options));
  const catalogue = loaded?.catalogue ?? null;
  const t = useMemo<Translate | null>(
    () => (catalogue === null ? null : createTranslator(catalogue, JSON.parse(overridesKey) as Translations)),
    [catalogue, overridesKey],
  );
  const locale = loaded?.locale ?? 'en';
  // Settings are compared by value: an inline `options={{...}}` object does not restart the checkout.
  const settingsKey = JSON.stringify(settingsFrom(options));
  const settings = useMemo<CheckoutSettings>(() => JSON.parse(settingsKey) as CheckoutSettings, [settingsKey]);
  const loadingState = useMemo(() => initialState(settings), [settings]);

  const [runtime, setRuntime] = useState<CheckoutRuntime | null>(null);
  // A layout effect: the runtime, and with it the card frames (the card view's layout effect), come in the commit that
  // first draws the form, not after the browser's paint and its other tasks (issue 10: the frames are the longest wait).
  useLayoutEffect(() => {
    if (t === null) return undefined;
    // A new token, new settings or new messages start over cleanly (StrictMode's double effect included).
    const created = new CheckoutRuntime({
      authorization,
      provider,
      settings,
      translate: t,
      callbacks: () => callbacks.current,
      walletOptions: latestOptions.current,
    });
    setRuntime(created);
    created.start();
    return () => {
      created.destroy();
      setRuntime((current) => (current === created ? null : current));
    };
  }, [authorization, provider, settings, t]);

  const state = useSyncExternalStore(
    runtime?.subscribe ?? noSubscription,
    runtime?.getState ?? (() => loadingState),
    () => loadingState,
  );

  const headingId = useId();
  const context = useMemo(
    () => ({ runtime, state, t: t ?? wordless, headingId, locale, direction: directionOf(locale) }),
    [runtime, state, t, headingId, locale],
  );

  return (
    <CheckoutContext.Provider value={context}>
      <Sheet />
    </CheckoutContext.Provider>
  );
}
