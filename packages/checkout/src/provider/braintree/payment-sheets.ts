// The browsers' own payment sheets, which braintree-web does not open itself: Safari's ApplePaySession (Apple Pay on
// the web, version 3) and Google Pay's PaymentsClient (its pay.js, loaded from Google when first needed). Only the
// members Kassa calls, so that a test can stand in for the sheets (this machine's Chromium has neither).
// Both sheets must be opened in the shopper's click: everything they need is prepared before (braintree-provider.ts).

export interface ApplePaySessionInstance {
  onvalidatemerchant: ((event: { readonly validationURL: string }) => void) | null;
  onpaymentauthorized: ((event: { readonly payment: { readonly token: unknown } }) => void) | null;
  oncancel: ((event: unknown) => void) | null;
  begin(): void;
  abort(): void;
  completeMerchantValidation(merchantSession: unknown): void;
  completePayment(status: number): void;
}

export interface ApplePaySessionClass {
  new (version: number, request: Readonly<Record<string, unknown>>): ApplePaySessionInstance;
  supportsVersion(version: number): boolean;
  canMakePayments(): boolean;
  readonly STATUS_SUCCESS: number;
  readonly STATUS_FAILURE: number;
}

export interface GooglePaymentsClient {
  isReadyToPay(request: Readonly<Record<string, unknown>>): Promise<{ readonly result: boolean }>;
  /** Rejects with `{ statusCode: 'CANCELED' }` when the shopper closes the sheet. */
  loadPaymentData(request: Readonly<Record<string, unknown>>): Promise<unknown>;
}

export interface PaymentSheets {
  /** Safari's ApplePaySession on a secure page, else undefined (Apple Pay is then not offered). */
  applePaySession(): ApplePaySessionClass | undefined;
  /** Google Pay's client for the environment; rejects when pay.js cannot be loaded. */
  googlePaymentsClient(environment: 'TEST' | 'PRODUCTION'): Promise<GooglePaymentsClient>;
}

interface GooglePayGlobal {
  readonly google?: {
    readonly payments?: {
      readonly api?: { readonly PaymentsClient: new (options: { environment: string }) => GooglePaymentsClient };
    };
  };
}

const GOOGLE_PAY_SCRIPT = 'https://pay.google.com/gp/p/js/pay.js';
let googlePayScript: Promise<void> | null = null;

/** Google's pay.js, added once (a page that already has it loads nothing). CSP: script-src https://pay.google.com. */
function loadGooglePay(): Promise<void> {
  if ((window as unknown as GooglePayGlobal).google?.payments?.api !== undefined) return Promise.resolve();
  googlePayScript ??= new Promise<void>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = GOOGLE_PAY_SCRIPT;
    script.async = true;
    script.onload = () => resolve();
    script.onerror = () => {
      googlePayScript = null;
      script.remove();
      reject(new Error(`${GOOGLE_PAY_SCRIPT} could not be loaded`));
    };
    document.head.append(script);
  });
  return googlePayScript;
}

export const browserPaymentSheets: PaymentSheets = {
  applePaySession: () =>
    window.isSecureContext ? (window as { ApplePaySession?: ApplePaySessionClass }).ApplePaySession : undefined,
  async googlePaymentsClient(environment) {
    await loadGooglePay();
    const api = (window as unknown as GooglePayGlobal).google?.payments?.api;
    if (api === undefined) throw new Error('pay.js loaded without google.payments.api');
    return new api.PaymentsClient({ environment });
  },
};
