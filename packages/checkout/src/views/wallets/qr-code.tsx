// A QR code as an SVG of dark squares (Venmo on a desktop: the shopper scans it with a phone). Loaded on demand with
// its encoder, so only a checkout that shows one downloads it. Dark on a light plate in both themes: scanners need it.
// Low error correction: a screen is not a scratched label, and fewer, larger squares scan from further away.
import encodeQR from 'qr';
import type { ReactElement } from 'react';

export default function QrCode({ value, label }: { readonly value: string; readonly label: string }): ReactElement {
  const modules = encodeQR(value, 'raw', { ecc: 'low', border: 2 });
  const size = modules.length;
  const path = modules.flatMap((row, y) => row.flatMap((dark, x) => (dark ? [`M${x} ${y}h1v1h-1z`] : []))).join('');
  return (
    <svg className="kassa-qr" viewBox={`0 0 ${size} ${size}`} role="img" aria-label={label} shapeRendering="crispEdges">
      <rect width={size} height={size} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
