import { Product } from "./catalogue-store";

export interface Line {
  product: Product;
  quantity: number;
}

/** totalCents sums the cart's lines; quantities below one are rejected. */
export function totalCents(lines: Line[]): number {
  let sum = 0;
  for (const line of lines) {
    if (line.quantity < 1) throw new Error(`bad quantity for ${line.product.sku}`);
    sum += line.product.priceCents * line.quantity;
  }
  return sum;
}
