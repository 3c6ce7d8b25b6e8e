import { useLayoutEffect, useState } from 'react';
import type { CheckoutInstance } from '@kassa/checkout';
import { type Theme, useTheme } from './theme.ts';

/**
 * After the theme changed to `theme`: null where the checkout's card fields took its colours where they are
 * (`restyle()`, the card typed and the view kept), else `theme`, the checkout's new key, so it is made again in them:
 * braintree-web's fields take their colours only as they are made, and before the checkout is ready there is no
 * instance to ask.
 */
export function remountKeyAfter(theme: Theme, instance: Pick<CheckoutInstance, 'restyle'> | null): Theme | null {
  return instance?.restyle() === true ? null : theme;
}

/** The key for <Checkout>: it changes with the theme only where the checkout cannot restyle itself. */
export function useCheckoutThemeKey(instance: CheckoutInstance | null): Theme {
  const theme = useTheme();
  const [key, setKey] = useState(theme);
  // A layout effect: the frames have the new colours with the page's first paint in the theme. Run for a new instance
  // too, which asks nothing of fields made in the theme already.
  useLayoutEffect(() => {
    const remount = remountKeyAfter(theme, instance);
    if (remount !== null) setKey(remount);
  }, [theme, instance]);
  return key;
}
