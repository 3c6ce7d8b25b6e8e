// A wallet's view: its own button, drawn like the provider's (our drawing, no copied artwork). The button opens the
// wallet's window in the click itself (one opened later would be blocked), or, for Venmo on a desktop, shows a QR
// code for the shopper's phone. Once approved, the account it will pay with. Shared by the wallet views, which all
// load in one chunk when a wallet is offered (src/wallets/registry.ts).
import {
  lazy,
  Suspense,
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type ReactElement,
  type ReactNode,
} from 'react';
import { walletAccount, walletText, type WalletMessageKey } from '../../i18n/wallet-messages.ts';
import type { WalletSurface } from '../../provider/provider.ts';
import { approveWallet, isVaultFlow, offersSave } from '../../wallets/approve.ts';
import type { WalletContext } from '../../wallets/registry.ts';
import { useCheckoutContext, useFocusTarget } from '../checkout-context.ts';

const QrCode = lazy(() => import('./qr-code.tsx'));

export interface WalletButtonProps {
  readonly context: WalletContext;
  /** The provider's mark as drawn here (decorative: the button's name says the wallet). */
  readonly mark: ReactNode;
}

/**
 * A phone (touch, no hover) pays in the wallet's app; elsewhere Venmo is paid by scanning a QR code. On the server
 * (a render to HTML) there is no screen to ask: not a phone.
 */
function isPhone(): boolean {
  return typeof window !== 'undefined' && window.matchMedia('(hover: none) and (pointer: coarse)').matches;
}

/**
 * The view's own part of the flow: waiting for the shopper's answer (`qrCode` when it comes from a phone: '' until
 * the code is known), or the failure it shows (a cancel shows nothing). An approval is the machine's (walletMethod).
 */
type Flow =
  | { readonly step: 'idle' | 'failed'; readonly refocus: boolean }
  | { readonly step: 'waiting'; readonly qrCode: string | null; readonly abort: AbortController };

export function WalletButton({ context, mark }: WalletButtonProps): ReactElement {
  const { option } = context;
  const { state, t, locale } = useCheckoutContext();
  const button = useRef<HTMLButtonElement>(null);
  const running = useRef<AbortController | null>(null);
  const [flow, setFlow] = useState<Flow>({ step: 'idle', refocus: false });
  // "Save {wallet} for my next payments", when the merchant offers it: checked by default, like "Save card".
  const [save, setSave] = useState(true);
  useFocusTarget(
    option,
    useCallback(() => button.current?.focus(), []),
  );
  // Leaving the view ends the flow: its window closes, a QR code stops waiting, a late approval is dropped.
  useEffect(() => () => running.current?.abort(), []);
  // Back on the button once it is drawn again, to try again or after a cancel (the QR code that had focus is gone).
  useLayoutEffect(() => {
    if (flow.step !== 'waiting' && flow.refocus) button.current?.focus();
  }, [flow]);
  const wallet = t(`option.${option}`);
  const text = (key: WalletMessageKey, account?: string): string => walletText(t, locale, key, wallet, account);
  const approved = state.walletMethod;
  // Venmo on a desktop shows a QR code; it opens no window, so the window hint would be wrong there. A provider that
  // shows the wallets' own UI (braintree-web: its windows, its QR code, the browser's payment sheet) gets no surface.
  const ownUi = context.provider.ownWalletUi === true;
  const byQrCode = option === 'venmo' && !ownUi && !isPhone();
  // Apple Pay and Google Pay show the phone's or browser's payment sheet, not a window: their hint says so.
  const sheet = option === 'applePay' || option === 'googlePay';
  // PayPal's vault flow saves the account for later instead of paying: its button and sentences say so.
  const vault = isVaultFlow(context);
  const saveOffered = offersSave(context);

  const start = (): void => {
    if (flow.step === 'waiting') return;
    const abort = new AbortController();
    running.current = abort;
    const surface: WalletSurface | null = ownUi
      ? { kind: 'provider' }
      : byQrCode
        ? { kind: 'qrCode', show: (url) => setFlow((now) => (now.step === 'waiting' ? { ...now, qrCode: url } : now)) }
        : (() => {
            const opened = window.open('', `kassa-${option}`, 'popup,width=480,height=680');
            return opened === null ? null : { kind: 'window', window: opened };
          })();
    setFlow({ step: 'waiting', qrCode: byQrCode ? '' : null, abort });
    void approveWallet(context, surface, abort.signal, saveOffered && save).then((end) => {
      setFlow({ step: end === 'failed' ? 'failed' : 'idle', refocus: end !== 'approved' });
    });
  };

  if (flow.step === 'waiting' && flow.qrCode !== null) {
    return (
      <div className="kassa-wallet kassa-wallet--qr" data-wallet={option}>
        <div className="kassa-wallet__qr">
          {flow.qrCode !== '' && (
            <Suspense fallback={null}>
              <QrCode value={flow.qrCode} label={text('qrLabel')} />
            </Suspense>
          )}
        </div>
        <div className="kassa-wallet__qr-text">
          <p className="kassa-wallet__qr-title">{text('qrTitle')}</p>
          <p className="kassa-wallet__qr-hint">{text('qrHint')}</p>
          <button type="button" className="kassa-wallet__cancel" onClick={() => flow.abort.abort()}>
            {text('cancel')}
          </button>
        </div>
      </div>
    );
  }

  return (
    <div className="kassa-wallet" data-wallet={option}>
      {approved !== null && (
        <p className="kassa-wallet__account">
          <svg className="kassa-wallet__check" viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false">
            <path d="M6.2 11.6 2.8 8.2l1.1-1.1 2.3 2.3 5.9-5.9 1.1 1.1z" fill="currentColor" />
          </svg>
          <span>{walletAccount(approved)}</span>
        </p>
      )}
      <button
        ref={button}
        type="button"
        className={`kassa-wallet__button kassa-wallet__button--${option}`}
        aria-label={text(vault ? 'vaultButton' : 'button')}
        aria-disabled={flow.step === 'waiting' ? true : undefined}
        onClick={start}
      >
        <span className="kassa-wallet__mark" aria-hidden="true">
          {mark}
        </span>
      </button>
      {saveOffered && approved === null && (
        <label className="kassa-save-card">
          <input
            type="checkbox"
            checked={save}
            disabled={flow.step === 'waiting'}
            onChange={(event) => setSave(event.target.checked)}
          />
          <span>{text('saveForLater')}</span>
        </label>
      )}
      <p className="kassa-wallet__error" role="alert">
        {flow.step === 'failed' ? text('failed') : ''}
      </p>
      <p className="kassa-wallet__status" role="status">
        {flow.step === 'waiting'
          ? text(vault ? 'vaultWaiting' : sheet ? 'sheetWaiting' : 'waiting')
          : approved !== null
            ? text(vault ? 'vaultReady' : 'readyToPay', walletAccount(approved))
            : byQrCode
              ? ''
              : text(vault ? 'vaultHint' : sheet ? 'sheetHint' : 'hint')}
      </p>
    </div>
  );
}
