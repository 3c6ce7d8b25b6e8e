import { describe, expect, it } from 'vitest';
import type { PaymentMethodResult } from '../machine/checkout.types.ts';
import { CheckoutError } from '../runtime/checkout-error.ts';
import { attachToForm, type FormCheckout } from './form-post.ts';

/** Just enough of a form and its window (no DOM in these tests): inputs, listeners and the real submit's calls. */
function fakeForm(existing: Record<string, string> = {}) {
  interface FakeInput {
    type: string;
    name: string;
    value: string;
    removed: boolean;
    remove(): void;
  }
  const input = (name: string, value = ''): FakeInput => ({
    type: 'hidden',
    name,
    value,
    removed: false,
    remove() {
      this.removed = true;
      inputs.splice(inputs.indexOf(this), 1);
    },
  });
  const inputs: FakeInput[] = Object.entries(existing).map(([name, value]) => input(name, value));
  const listeners = new Set<(event: { preventDefault(): void }) => void>();
  const submitted: Array<Record<string, string>> = [];
  let requested = 0;
  const form = {
    querySelector: (selector: string) => inputs.find((i) => selector === `input[type="hidden"][name="${i.name}"]`) ?? null,
    append: (child: FakeInput) => inputs.push(child),
    addEventListener: (_: string, listener: (event: { preventDefault(): void }) => void) => listeners.add(listener),
    removeEventListener: (_: string, listener: (event: { preventDefault(): void }) => void) => listeners.delete(listener),
    requestSubmit: () => {
      requested += 1;
    },
    ownerDocument: {
      createElement: () => input(''),
      defaultView: {
        HTMLFormElement: {
          prototype: {
            submit() {
              submitted.push(Object.fromEntries(inputs.map((i) => [i.name, i.value])));
            },
          },
        },
      },
    },
  };
  let prevented = 0;
  const submit = () => {
    for (const listener of [...listeners]) listener({ preventDefault: () => (prevented += 1) });
  };
  return {
    form: form as unknown as HTMLFormElement,
    inputs,
    listeners,
    submitted,
    submit,
    prevented: () => prevented,
    requested: () => requested,
  };
}

const method = { nonce: 'tokencc_abc', deviceData: '{"device_session_id":"d1"}' } as PaymentMethodResult;

function fakeCheckout(outcome: () => Promise<PaymentMethodResult>) {
  const handlers = new Set<() => void>();
  const checkout: FormCheckout = {
    requestPaymentMethod: outcome,
    on: (_event, handler) => handlers.add(handler as () => void),
    off: (_event, handler) => handlers.delete(handler as () => void),
  };
  return {
    checkout,
    pressEnter: () => {
      for (const handler of handlers) handler();
    },
    handlers,
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('the form-post integration', () => {
  it('holds the submit, writes payment_method_nonce and device_data, then submits the form for real once', async () => {
    const page = fakeForm({ order_id: 'ord_1' });
    attachToForm(page.form, fakeCheckout(() => Promise.resolve(method)).checkout);
    page.submit();
    expect(page.prevented()).toBe(1);
    expect(page.submitted).toEqual([]);
    await settle();
    expect(page.submitted).toEqual([
      { order_id: 'ord_1', payment_method_nonce: 'tokencc_abc', device_data: '{"device_session_id":"d1"}' },
    ]);
  });

  it('submits nothing when the checkout refuses (the sheet says why)', async () => {
    const page = fakeForm();
    attachToForm(
      page.form,
      fakeCheckout(() => Promise.reject(new CheckoutError('invalid_fields', 'Check your entries and try again.'))).checkout,
    );
    page.submit();
    await settle();
    expect(page.prevented()).toBe(1);
    expect(page.submitted).toEqual([]);
  });

  it("reuses the page's own hidden inputs, and its teardown removes only what it added, with its listeners", async () => {
    const page = fakeForm({ payment_method_nonce: '' });
    const { checkout, pressEnter, handlers } = fakeCheckout(() => Promise.resolve({ ...method, deviceData: undefined }));
    const detach = attachToForm(page.form, checkout);
    pressEnter();
    expect(page.requested()).toBe(1);
    page.submit();
    await settle();
    expect(page.submitted).toEqual([{ payment_method_nonce: 'tokencc_abc', device_data: '' }]);

    detach();
    expect(page.inputs.map((i) => i.name)).toEqual(['payment_method_nonce']);
    expect(page.listeners.size).toBe(0);
    expect(handlers.size).toBe(0);
  });
});
