// Small marks for the option list, drawn by us (not the wallets' artwork). Colours are SVG presentation attributes,
// which a strict style-src CSP allows.
import type { ReactElement } from 'react';
import type { PaymentOptionId } from '../../machine/payment-options.ts';

const card = (
  <>
    <rect x="3" y="5" width="26" height="18" rx="3" fill="none" stroke="currentColor" strokeWidth="1.8" />
    <rect x="3" y="9" width="26" height="3.5" fill="currentColor" />
    <rect x="7" y="16" width="8" height="2.5" rx="1" fill="currentColor" />
  </>
);

function monogram(text: string, fill: string): ReactElement {
  return (
    <>
      <rect x="2" y="4" width="28" height="20" rx="4" fill={fill} />
      <text
        x="16"
        y="18"
        textAnchor="middle"
        fontFamily="Arial, Helvetica, sans-serif"
        fontWeight="700"
        fontSize="10"
        fill="#fff"
      >
        {text}
      </text>
    </>
  );
}

const marks: Record<PaymentOptionId, ReactElement> = {
  card,
  paypal: monogram('PP', '#003087'),
  paypalCredit: monogram('PC', '#0070e0'),
  venmo: monogram('V', '#008cff'),
  applePay: monogram('Pay', '#000'),
  googlePay: monogram('G', '#3c4043'),
};

export function OptionIcon({ option }: { readonly option: PaymentOptionId }): ReactElement {
  return (
    <svg className="kassa-option__icon" viewBox="0 0 32 28" width="32" height="28" aria-hidden="true" focusable="false">
      {marks[option]}
    </svg>
  );
}
