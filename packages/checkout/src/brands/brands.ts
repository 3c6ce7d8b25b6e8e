// The eight card networks the checkout shows, and how the frame's brand ids (credit-card-type's: 'american-express')
// match the gateway configuration's supportedCardTypes names ('American Express', 'MasterCard'): letters compared
// without case, spaces and dashes.
export type BrandId = 'visa' | 'mastercard' | 'american-express' | 'discover' | 'jcb' | 'diners-club' | 'maestro' | 'unionpay';

interface BrandInfo {
  readonly id: BrandId;
  /** Display name (a trademark: not translated). */
  readonly name: string;
}

export const BRANDS: readonly BrandInfo[] = [
  { id: 'visa', name: 'Visa' },
  { id: 'mastercard', name: 'Mastercard' },
  { id: 'american-express', name: 'American Express' },
  { id: 'discover', name: 'Discover' },
  { id: 'jcb', name: 'JCB' },
  { id: 'diners-club', name: 'Diners Club' },
  { id: 'maestro', name: 'Maestro' },
  { id: 'unionpay', name: 'UnionPay' },
];

function normalise(name: string): string {
  return name.toLowerCase().replace(/[^a-z]/g, '');
}

/** Whether two names are one brand's: a frame's id, a display name, a gateway's name (MasterCard, Mastercard, mastercard). */
export function sameBrand(a: string, b: string): boolean {
  return normalise(a) === normalise(b);
}

/** Whether the frame-reported brand is among the gateway's supported card types. */
export function isBrandSupported(frameType: string, supportedCardTypes: readonly string[]): boolean {
  return supportedCardTypes.some((name) => sameBrand(name, frameType));
}

/** The brands to show for a configuration, in the fixed display order. */
export function supportedBrands(supportedCardTypes: readonly string[]): readonly BrandInfo[] {
  return BRANDS.filter((b) => isBrandSupported(b.id, supportedCardTypes));
}
