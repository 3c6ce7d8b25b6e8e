// Reading the wire's loosely typed parameters (camelCased JSON the SDK sent; values unchecked).

/** The SDK sends booleans as JSON booleans; "true" is accepted too, as the provider does. */
export function isTrue(value: unknown): boolean {
  return value === true || value === 'true';
}

/** A given, non-empty parameter as text; null when absent, null or empty. */
export function givenText(value: unknown): string | null {
  if (value === undefined || value === null || value === '') return null;
  return String(value);
}
