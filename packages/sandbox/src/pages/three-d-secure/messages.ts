// The challenge page's words (the issuer's page: English only, like the provider's test pages).

export const messages = {
  summary: (amount: string, card: string) => `Approve a payment of ${amount} with ${card}.`,
  card: (cardType: string, lastFour: string) => `${cardType} ending in ${lastFour}`,
  codeMissing: 'Enter the one-time code.',
  checking: 'Checking the code…',
  unavailable: 'This check has expired or does not exist. Close it and try again.',
  network: 'The bank could not be reached. Try again.',
} as const;
