// Pictures of the demo catalogue's products, drawn for this shop (public/products/). A product the catalogue adds
// later shows the generic picture until it gets its own.
const pictures: Record<string, string> = {
  prd_coffeebeans: '/products/coffee-beans.svg',
  prd_mug: '/products/mug.svg',
  prd_grinder: '/products/burr-grinder.svg',
  prd_espressomachine: '/products/espresso-machine.svg',
};

export function productImage(productId: string): string {
  return pictures[productId] ?? '/products/generic.svg';
}
