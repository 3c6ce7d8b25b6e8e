// Small, drawn-by-us marks for the eight networks (not the networks' artwork), drawn inside BrandIcon's frame and
// imported on demand (brand-icons.tsx). Colours are SVG presentation attributes, which a strict style-src CSP allows
// (no style attribute anywhere).
import type { ReactElement } from 'react';
import type { BrandId } from './brands.ts';

function word(text: string, fill: string, size = 9): ReactElement {
  return (
    <text
      x="20"
      y="17"
      textAnchor="middle"
      fontFamily="Arial, Helvetica, sans-serif"
      fontWeight="700"
      fontSize={size}
      fill={fill}
    >
      {text}
    </text>
  );
}

const marks: Record<BrandId, ReactElement> = {
  visa: word('VISA', '#1a1f71', 10),
  mastercard: (
    <>
      <circle cx="16" cy="13" r="7" fill="#eb001b" />
      <circle cx="24" cy="13" r="7" fill="#f79e1b" fillOpacity="0.85" />
    </>
  ),
  'american-express': (
    <>
      <rect x="3" y="4" width="34" height="18" rx="2" fill="#2e77bc" />
      {word('AMEX', '#fff', 8)}
    </>
  ),
  discover: (
    <>
      {word('DISC', '#231f20', 7)}
      <circle cx="33" cy="14" r="3" fill="#f58220" />
    </>
  ),
  jcb: (
    <>
      <rect x="8" y="6" width="7" height="14" rx="2" fill="#0e4c96" />
      <rect x="16.5" y="6" width="7" height="14" rx="2" fill="#d71f26" />
      <rect x="25" y="6" width="7" height="14" rx="2" fill="#0a8a3e" />
    </>
  ),
  'diners-club': (
    <>
      <circle cx="20" cy="13" r="8" fill="none" stroke="#0079be" strokeWidth="2.5" />
      <line x1="20" y1="7" x2="20" y2="19" stroke="#0079be" strokeWidth="1.5" />
    </>
  ),
  maestro: (
    <>
      <circle cx="16" cy="13" r="7" fill="#0099df" />
      <circle cx="24" cy="13" r="7" fill="#eb001b" fillOpacity="0.85" />
    </>
  ),
  unionpay: (
    <>
      <path d="M9 5h8l-4 16H5z" fill="#e21836" />
      <path d="M17 5h8l-4 16h-8z" fill="#00447c" />
      <path d="M25 5h9l-4 16h-9z" fill="#007b84" />
    </>
  ),
};

export default function BrandMark({ brand }: { brand: BrandId }): ReactElement {
  return marks[brand];
}
