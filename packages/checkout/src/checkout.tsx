// <Checkout>: the root component. React only mounts: the runtime (created in an effect, so never during a server
// render) owns the machine, the frames and the listeners, and is destroyed on unmount. The runtime is a chunk of its
// own (issue 10): this module and the views draw the loading card form without it.
import { useEffect, useId, useLayoutEffect, useMemo, useRef, useState, useSyncExternalStore, type ReactElement } from 'react';
import { createTranslator, directionOf, resolveLocale, type Translate, type Translations } from './i18n/i18n.ts';
import { useCatalogue } from './i18n/use-catalogue.ts';
import { initialState } from './machine/checkout.state.ts';
import type { CheckoutSettings, CheckoutState } from './machine/checkout.types.ts';
import type { ProviderClient } from './provider/provider.ts';
import type { CheckoutRuntime } from './runtime/checkout-runtime.ts';
import { CheckoutError, NOT_DOWNLOADED } from './runtime/checkout-error.ts';
import type { CheckoutCallbacks } from './runtime/events.ts';
import { settingsFrom, translationsFrom, walletOptionsFrom, type CheckoutOptions } from './runtime/options.ts';
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

type RuntimeModule = typeof import('./runtime/checkout-runtime.ts');

/** The runtime's chunk once it has arrived: a checkout made after that creates its runtime at once. */
let runtimeModule: RuntimeModule | null = null;
let runtimeImport: Promise<RuntimeModule> | null = null;

function importRuntime(): Promise<RuntimeModule> {
  runtimeImport ??= import('./runtime/checkout-runtime.ts').then(
    (module) => (runtimeModule = module),
    (error: unknown) => {
      runtimeImport = null; // A checkout mounted later asks again (a browser that kept the failure answers at once).
      throw error;
    },
  );
  return runtimeImport;
}

// Asked for as this module runs in a browser, not at the first render: it downloads while the page around the checkout
// loads and renders, so the runtime, and with it the card frames, usually come in the commit that first draws the form.
if (typeof document !== 'undefined') importRuntime().catch(() => undefined);

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
  // The runtime's chunk failed to import: the state shown instead of the loading one.
  const [unloaded, setUnloaded] = useState<CheckoutState | null>(null);
  // A layout effect: the runtime, and with it the card frames (the card view's layout effect), come in the commit that
  // first draws the form, not after the browser's paint and its other tasks (issue 10: the frames are the longest wait).
  useLayoutEffect(() => {
    if (t === null) return undefined;
    // A new token, new settings or new messages start over cleanly (StrictMode's double effect included).
    let created: CheckoutRuntime | null = null;
    let current = true;
    const create = ({ CheckoutRuntime }: RuntimeModule): void => {
      created = new CheckoutRuntime({
        authorization,
        ...(provider !== undefined ? { provider } : {}),
        settings,
        translate: t,
        callbacks: () => callbacks.current,
        walletOptions: walletOptionsFrom(latestOptions.current),
      });
      setRuntime(created);
      created.start();
    };
    if (runtimeModule !== null) create(runtimeModule);
    else
      importRuntime().then(
        (module) => {
          if (current) create(module);
        },
        (error: unknown) => {
          if (!current) return;
          console.error('[kassa/checkout] the checkout could not be loaded', error);
          setUnloaded({ ...initialState(settings), phase: 'error', loadError: NOT_DOWNLOADED });
          callbacks.current.onError?.(new CheckoutError(NOT_DOWNLOADED.code, t(NOT_DOWNLOADED.messageKey)));
        },
      );
    return () => {
      current = false;
      if (created === null) return;
      const destroyed: CheckoutRuntime = created;
      destroyed.destroy();
      setRuntime((latest) => (latest === destroyed ? null : latest));
    };
  }, [authorization, provider, settings, t]);

  const shown = unloaded ?? loadingState;
  const state = useSyncExternalStore(
    runtime?.subscribe ?? noSubscription,
    runtime?.getState ?? (() => shown),
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
