import { Router } from "express";
import { CatalogueStore } from "../services/catalogue-store";

const store = new CatalogueStore();
export const catalogue = Router();

catalogue.get("/", async (req, res) => {
  const offset = Number(req.query.offset ?? 0);
  const size = Math.min(Number(req.query.size ?? 20), 100);
  res.json(await store.page(offset, size));
});

catalogue.get("/:sku", async (req, res) => {
  const product = await store.find(req.params.sku);
  if (!product) return res.status(404).json({ error: "no such product" });
  res.json(product);
});
