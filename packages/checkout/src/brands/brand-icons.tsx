// A card network's icon: a labelled frame, drawn at once, and the network's mark inside it (brand-marks.tsx), a chunk
// of its own: a card can be typed before the marks arrive (issue 10: they were 0.7 KB gzip of the card view). Its
// download starts in the checkout's first render, with the configuration's request: the sheet draws every brand while
// the configuration loads (connectCard), and each mark asks for the chunk. A mark that cannot be downloaded leaves
// the frame and its label.
import { lazy, Suspense, type ComponentType, type ReactElement } from 'react';
import type { BrandId } from './brands.ts';

type BrandMarkModule = { default: ComponentType<{ brand: BrandId }> };

const loadBrandMarks = (): Promise<BrandMarkModule> => import('./brand-marks.tsx').catch(() => ({ default: () => null }));

const BrandMark = lazy(loadBrandMarks);

export function BrandIcon({ brand, title }: { brand: BrandId; title: string }): ReactElement {
  return (
    <svg className="kassa-brand__icon" viewBox="0 0 40 26" width="40" height="26" role="img" aria-label={title} focusable="false">
      <rect width="40" height="26" rx="3" fill="#fff" stroke="#d0d4dc" />
      <Suspense fallback={null}>
        <BrandMark brand={brand} />
      </Suspense>
    </svg>
  );
}
