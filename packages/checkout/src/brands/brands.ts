// The eight card networks the checkout shows, and how the frame's brand ids (credit-card-type) map to the
// gateway configuration's supportedCardTypes names.
export type BrandId = 'visa' | 'mastercard' | 'american-express' | 'discover' | 'jcb' | 'diners-club' | 'maestro' | 'unionpay';

interface BrandInfo {
  readonly id: BrandId;
  /** Display name (a trademark: not translated). */
  readonly name: string;
  /** The name the gateway configuration uses in creditCards.supportedCardTypes. */
  readonly gatewayName: string;
}

export const BRANDS: readonly BrandInfo[] = [
  { id: 'visa', name: 'Visa', gatewayName: 'Visa' },
  { id: 'mastercard', name: 'Mastercard', gatewayName: 'MasterCard' },
  { id: 'american-express', name: 'American Express', gatewayName: 'American Express' },
  { id: 'discover', name: 'Discover', gatewayName: 'Discover' },
  { id: 'jcb', name: 'JCB', gatewayName: 'JCB' },
  { id: 'diners-club', name: 'Diners Club', gatewayName: 'Diners Club' },
  { id: 'maestro', name: 'Maestro', gatewayName: 'Maestro' },
  { id: 'unionpay', name: 'UnionPay', gatewayName: 'UnionPay' },
];

function normalise(name: string): string {
  return name.toLowerCase().replace(/[^a-z]/g, '');
}

/** Whether the frame-reported brand is among the gateway's supported card types (names compared loosely). */
export function isBrandSupported(frameType: string, supportedCardTypes: readonly string[]): boolean {
  const brand = BRANDS.find((b) => b.id === frameType);
  const wanted = normalise(brand?.gatewayName ?? frameType);
  return supportedCardTypes.some((name) => normalise(name) === wanted);
}

/** The brands to show for a configuration, in the fixed display order. */
export function supportedBrands(supportedCardTypes: readonly string[]): readonly BrandInfo[] {
  return BRANDS.filter((b) => isBrandSupported(b.id, supportedCardTypes));
}
