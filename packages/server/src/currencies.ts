/**
 * ISO 4217 minor units: how many digits after the decimal point an amount has in each active currency (the ISO 4217
 * list, SIX Group's "list one"; funds and precious metals without minor units are left out). The one table for the
 * product: the web app gets a generated copy (scripts/generate-web-contract.ts). Where ISO and the CLDR display rules
 * that Intl follows differ (HUF, IDR: ISO 2, CLDR 0), ISO wins: amounts are stored in ISO minor units.
 */
const EXPONENT_0 = ['BIF', 'CLP', 'DJF', 'GNF', 'ISK', 'JPY', 'KMF', 'KRW', 'PYG', 'RWF', 'UGX', 'UYI', 'VND', 'VUV', 'XAF', 'XOF', 'XPF'];
const EXPONENT_3 = ['BHD', 'IQD', 'JOD', 'KWD', 'LYD', 'OMR', 'TND'];
const EXPONENT_4 = ['CLF', 'UYW'];
const EXPONENT_2 = [
  'AED', 'AFN', 'ALL', 'AMD', 'ANG', 'AOA', 'ARS', 'AUD', 'AWG', 'AZN', 'BAM', 'BBD', 'BDT', 'BGN', 'BMD', 'BND', 'BOB',
  'BOV', 'BRL', 'BSD', 'BTN', 'BWP', 'BYN', 'BZD', 'CAD', 'CDF', 'CHE', 'CHF', 'CHW', 'CNY', 'COP', 'COU', 'CRC', 'CUP',
  'CVE', 'CZK', 'DKK', 'DOP', 'DZD', 'EGP', 'ERN', 'ETB', 'EUR', 'FJD', 'FKP', 'GBP', 'GEL', 'GHS', 'GIP', 'GMD', 'GTQ',
  'GYD', 'HKD', 'HNL', 'HTG', 'HUF', 'IDR', 'ILS', 'INR', 'IRR', 'JMD', 'KES', 'KGS', 'KHR', 'KPW', 'KYD', 'KZT', 'LAK',
  'LBP', 'LKR', 'LRD', 'LSL', 'MAD', 'MDL', 'MGA', 'MKD', 'MMK', 'MNT', 'MOP', 'MRU', 'MUR', 'MVR', 'MWK', 'MXN', 'MXV',
  'MYR', 'MZN', 'NAD', 'NGN', 'NIO', 'NOK', 'NPR', 'NZD', 'PAB', 'PEN', 'PGK', 'PHP', 'PKR', 'PLN', 'QAR', 'RON', 'RSD',
  'RUB', 'SAR', 'SBD', 'SCR', 'SDG', 'SEK', 'SGD', 'SHP', 'SLE', 'SOS', 'SRD', 'SSP', 'STN', 'SVC', 'SYP', 'SZL', 'THB',
  'TJS', 'TMT', 'TOP', 'TRY', 'TTD', 'TWD', 'TZS', 'UAH', 'USD', 'USN', 'UYU', 'UZS', 'VED', 'VES', 'WST', 'XCD', 'XCG',
  'YER', 'ZAR', 'ZMW', 'ZWG',
];

export const MINOR_UNITS: Readonly<Record<string, number>> = Object.fromEntries([
  ...EXPONENT_0.map((code) => [code, 0] as const),
  ...EXPONENT_2.map((code) => [code, 2] as const),
  ...EXPONENT_3.map((code) => [code, 3] as const),
  ...EXPONENT_4.map((code) => [code, 4] as const),
]);

/** Digits after the decimal point in `currency`; throws for a code that is not an active ISO 4217 currency. */
export function minorUnits(currency: string): number {
  const digits = MINOR_UNITS[currency];
  if (digits === undefined) throw new RangeError(`${currency} is not an ISO 4217 currency with minor units`);
  return digits;
}
