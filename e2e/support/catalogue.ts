// Products of the seeded demo catalogue that the specs rely on (packages/server seeds them).
export const catalogue = {
  everyday: 'Kassa mug', // 12.00 EUR
  declinedByAmount: 'Espresso machine', // 2000.00 EUR: the sandbox declines that amount with code 2000
};

/** The same products' ids, for orders made through the shop's API (`Shopper.ordersThroughApi`). */
export const productIds = {
  everyday: 'prd_mug',
  declinedByAmount: 'prd_espressomachine',
} satisfies Record<keyof typeof catalogue, string>;
