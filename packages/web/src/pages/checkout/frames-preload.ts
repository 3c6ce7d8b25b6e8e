// The card field frame, preloaded as soon as the checkout's session is there (main.tsx): it loads while the app's
// modules still arrive and run, and the card view's five frames then find the gateway origin's renderer started and
// their page cached (issue 10; @kassa/checkout/sandbox's preloadSandboxFields). Only Kassa's sandbox: the real
// provider's fields are braintree-web's.
import { preloadSandboxFields } from '@kassa/checkout/sandbox';
import type { CheckoutData } from './checkout-data.ts';
import { isProviderToken } from './real-provider.ts';

/** What removes the frame preloaded for an order's checkout. */
const preloads = new Map<string, () => void>();

export function preloadCardFrames(orderId: string, { session }: CheckoutData): void {
  if (session === undefined || isProviderToken(session.clientToken) || preloads.has(orderId)) return;
  preloads.set(orderId, preloadSandboxFields(session.clientToken));
}

/** Removes the frame preloaded for this order's checkout: the checkout's own frames are ready, or the page has closed. */
export function endFramesPreload(orderId: string): void {
  preloads.get(orderId)?.();
  preloads.delete(orderId);
}
