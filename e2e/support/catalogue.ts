// Products of the seeded demo catalogue that the specs rely on (packages/server seeds them).
export const catalogue = {
  everyday: 'Kassa mug', // 12.00 EUR
  declinedByAmount: 'Espresso machine', // 2000.00 EUR: the sandbox declines that amount with code 2000
};
