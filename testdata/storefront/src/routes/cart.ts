import { Router } from "express";
import { Line, totalCents } from "../services/pricing";

const carts = new Map<string, Line[]>();
export const cart = Router();

cart.get("/:id", (req, res) => {
  const lines = carts.get(req.params.id) ?? [];
  res.json({ lines, totalCents: totalCents(lines) });
});

cart.post("/:id/lines", (req, res) => {
  const lines = carts.get(req.params.id) ?? [];
  lines.push(req.body as Line);
  carts.set(req.params.id, lines);
  res.status(201).json({ lines });
});
