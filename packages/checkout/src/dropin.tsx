// @kassa/checkout/dropin: the checkout for a page without React, in the provider drop-in's shape:
// `create({ authorization, container, ...options })` resolves with the instance once the checkout is ready. This
// entry bundles React in (the host page has none); a React app imports <Checkout> from '@kassa/checkout' instead.
import { createRoot } from 'react-dom/client';
import { Checkout } from './checkout.tsx';
import { attachToForm } from './dropin/form-post.ts';
import { CheckoutError } from './runtime/checkout-error.ts';
import type { CheckoutInstance } from './runtime/checkout-runtime.ts';
import type { CheckoutOptions } from './runtime/options.ts';

export interface DropinOptions extends CheckoutOptions {
  /** The client token your server generated. */
  readonly authorization: string;
  /** An empty element, or a CSS selector naming one. Inside a <form>, submitting the form pays (see the README). */
  readonly container: HTMLElement | string;
}

function containerFrom(container: HTMLElement | string): HTMLElement {
  const element = typeof container === 'string' ? document.querySelector<HTMLElement>(container) : container;
  if (!(element instanceof HTMLElement)) {
    throw new Error(
      `[kassa/checkout] create(): options.container must be an element or a selector of one; ${JSON.stringify(container)} matched nothing.`,
    );
  }
  if (element.hasChildNodes()) {
    throw new Error('[kassa/checkout] create(): options.container must be empty (the checkout replaces nothing of yours).');
  }
  return element;
}

/**
 * Mounts the checkout into `container`. Resolves with the instance when every way to pay has loaded; rejects with
 * the CheckoutError of a load failure (the container is emptied, as the provider's drop-in does) or with an Error
 * for a missing container. `teardown()` removes it all, the form integration included.
 */
export function create(options: DropinOptions): Promise<CheckoutInstance> {
  const { authorization, container: given, ...checkoutOptions } = options;
  let container: HTMLElement;
  try {
    container = containerFrom(given);
  } catch (error) {
    return Promise.reject(error);
  }
  return new Promise<CheckoutInstance>((resolve, reject) => {
    const root = createRoot(container);
    let settled = false;
    let detachForm = (): void => {};
    const unmount = (): void => {
      detachForm();
      root.unmount();
    };
    root.render(
      <Checkout
        authorization={authorization}
        options={checkoutOptions}
        onReady={(instance) => {
          if (settled) return;
          settled = true;
          const form = container.closest('form');
          if (form !== null) detachForm = attachToForm(form, instance);
          resolve({
            ...instance,
            teardown: async () => {
              await instance.teardown();
              unmount();
            },
          });
        }}
        onError={(error: CheckoutError) => {
          if (settled) return;
          settled = true;
          unmount();
          reject(error);
        }}
      />,
    );
  });
}

export { CheckoutError };
// A page without React words its own text in the checkout's language: the same locales, resolved the same way.
export { directionOf, resolveLocale, SUPPORTED_LOCALES, type Locale } from './i18n/i18n.ts';
export type { CheckoutInstance, CheckoutOptions };
export type { PaymentMethodResult } from './machine/checkout.types.ts';
