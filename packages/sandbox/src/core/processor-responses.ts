// Processor response codes the sandbox returns for amounts 2000.00-2999.99 (the code is the amount's integer part)
// with the provider's texts and its soft/hard split: a soft decline may succeed on retry, a hard one will not.

export type ProcessorResponseType = 'approved' | 'soft_declined' | 'hard_declined';

export interface ProcessorResponse {
  code: string;
  text: string;
  type: ProcessorResponseType;
}

export const APPROVED: ProcessorResponse = { code: '1000', text: 'Approved', type: 'approved' };
export const NETWORK_UNAVAILABLE: ProcessorResponse = {
  code: '3000',
  text: 'Processor Network Unavailable - Try Again',
  type: 'soft_declined',
};

const S = 'soft_declined';
const H = 'hard_declined';

const DECLINES: Readonly<Record<number, readonly [string, ProcessorResponseType]>> = {
  2000: ['Do Not Honor', S],
  2001: ['Insufficient Funds', S],
  2002: ['Limit Exceeded', S],
  2003: ["Cardholder's Activity Limit Exceeded", S],
  2004: ['Expired Card', H],
  2005: ['Invalid Credit Card Number', H],
  2006: ['Invalid Expiration Date', H],
  2007: ['No Account', H],
  2008: ['Card Account Length Error', H],
  2009: ['No Such Issuer', H],
  2010: ['Card Issuer Declined CVV', H],
  2011: ['Voice Authorization Required', H],
  2012: ['Processor Declined - Possible Lost Card', H],
  2013: ['Processor Declined - Possible Stolen Card', H],
  2014: ['Processor Declined - Fraud Suspected', H],
  2015: ['Transaction Not Allowed', H],
  2016: ['Duplicate Transaction', S],
  2017: ['Cardholder Stopped Billing', H],
  2018: ['Cardholder Stopped All Billing', H],
  2019: ['Invalid Transaction', H],
  2020: ['Violation', H],
  2021: ['Security Violation', H],
  2022: ['Declined - Updated Cardholder Available', H],
  2023: ['Processor Does Not Support This Feature', H],
  2024: ['Card Type Not Enabled', H],
  2025: ['Set Up Error - Merchant', S],
  2026: ['Invalid Merchant ID', S],
  2027: ['Set Up Error - Amount', H],
  2028: ['Set Up Error - Hierarchy', H],
  2029: ['Set Up Error - Card', H],
  2030: ['Set Up Error - Terminal', H],
  2031: ['Encryption Error', H],
  2032: ['Surcharge Not Permitted', H],
  2033: ['Inconsistent Data', H],
  2034: ['No Action Taken', S],
  2038: ['Processor Declined', S],
  2044: ['Declined - Call Issuer', H],
  2046: ['Declined', S],
  2047: ['Call Issuer. Pick Up Card', H],
  2057: ['Issuer or Cardholder has put a restriction on the card', S],
};

/** The decline for a processor response code in 2000..2999; codes without their own text read "Processor Declined". */
export function processorDecline(code: number): ProcessorResponse {
  const known = DECLINES[code];
  return { code: String(code), text: known?.[0] ?? 'Processor Declined', type: known?.[1] ?? S };
}
