/** The shop's products. Prices are integer minor units, like every amount the shop stores. */
export interface Product {
  id: string
  name: string
  blurb: string
  priceMinor: bigint
  currency: string
}

export const products: readonly Product[] = [
  {
    id: 'espresso-beans',
    name: 'Espresso beans, 1 kg',
    blurb: 'Chocolate and hazelnut, roasted this week.',
    priceMinor: 2490n,
    currency: 'USD',
  },
  {
    id: 'pour-over-kettle',
    name: 'Pour-over kettle',
    blurb: 'Gooseneck spout, 0.9 l, stovetop.',
    priceMinor: 5900n,
    currency: 'USD',
  },
  {
    id: 'hand-grinder',
    name: 'Hand grinder',
    blurb: 'Steel conical burrs, 40 settings.',
    priceMinor: 12900n,
    currency: 'USD',
  },
  {
    // A zero-decimal currency, to show amounts follow each currency's minor digits.
    id: 'matcha-tin',
    name: 'Ceremonial matcha, 30 g',
    blurb: 'Stone-ground in Uji. Priced in yen.',
    priceMinor: 1800n,
    currency: 'JPY',
  },
  {
    // Priced in euros, so it can also be paid the Portuguese ways: MB WAY and Multibanco.
    id: 'espresso-cups',
    name: 'Espresso cups, set of 2',
    blurb: 'Hand-glazed stoneware from Portugal. Priced in euros.',
    priceMinor: 1850n,
    currency: 'EUR',
  },
]

export function findProduct(id: string): Product | undefined {
  return products.find((product) => product.id === id)
}
