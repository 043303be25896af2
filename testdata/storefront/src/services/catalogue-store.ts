import { config } from "../config";

export interface Product {
  sku: string;
  title: string;
  priceCents: number;
  stock: number;
}

/** CatalogueStore reads products from the catalogue service. */
export class CatalogueStore {
  constructor(private baseUrl = config.catalogueUrl) {}

  async find(sku: string): Promise<Product | undefined> {
    const res = await fetch(`${this.baseUrl}/products/${encodeURIComponent(sku)}`);
    if (res.status === 404) return undefined;
    return (await res.json()) as Product;
  }

  async page(offset: number, size: number): Promise<Product[]> {
    const res = await fetch(`${this.baseUrl}/products?offset=${offset}&size=${size}`);
    return (await res.json()) as Product[];
  }
}
