// The provider drop-in's form integration: when the checkout sits inside a <form>, submitting the form asks for the
// payment method, writes it into hidden `payment_method_nonce` and `device_data` inputs and submits the form for
// real, so a server that takes plain form posts needs no JavaScript of its own.
import type { CheckoutInstance } from '../runtime/checkout-runtime.ts';

export const NONCE_INPUT = 'payment_method_nonce';
export const DEVICE_DATA_INPUT = 'device_data';

/** The parts of the instance the form integration uses. */
export type FormCheckout = Pick<CheckoutInstance, 'requestPaymentMethod' | 'on' | 'off'>;

/**
 * Takes over the form's submission; returns the clean-up (listeners and the hidden inputs it added). A failed
 * request leaves the form unsubmitted: the checkout shows the shopper why.
 */
export function attachToForm(form: HTMLFormElement, checkout: FormCheckout): () => void {
  /** The hidden inputs this integration added (the page may have its own, which are reused and left in place). */
  const added: HTMLInputElement[] = [];
  const input = (name: string): HTMLInputElement => {
    const existing = form.querySelector<HTMLInputElement>(`input[type="hidden"][name="${name}"]`);
    if (existing !== null) return existing;
    const created = form.ownerDocument.createElement('input');
    created.type = 'hidden';
    created.name = name;
    form.append(created);
    added.push(created);
    return created;
  };

  const onSubmit = (event: SubmitEvent): void => {
    event.preventDefault();
    checkout.requestPaymentMethod().then(
      (method) => {
        input(NONCE_INPUT).value = method.nonce;
        input(DEVICE_DATA_INPUT).value = method.deviceData ?? '';
        // The prototype's submit (of the form's own window): a control named "submit" would shadow form.submit, and
        // it fires no second submit event.
        form.ownerDocument.defaultView?.HTMLFormElement.prototype.submit.call(form);
      },
      () => {},
    );
  };
  // Enter in a card field submits the form, as Enter in any other field of it does.
  const onEnter = (): void => form.requestSubmit();

  form.addEventListener('submit', onSubmit);
  checkout.on('card:inputSubmitRequest', onEnter);
  return () => {
    form.removeEventListener('submit', onSubmit);
    checkout.off('card:inputSubmitRequest', onEnter);
    for (const element of added) element.remove();
  };
}
