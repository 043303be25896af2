import { Request, Response } from "express";
import { pool } from "../db/pool";

export async function listOrders(req: Request, res: Response) {
  const { rows } = await pool.query("SELECT id, user_id, total FROM orders ORDER BY created_at DESC LIMIT 100");
  res.json(rows);
}

export async function createOrder(req: Request, res: Response) {
  const { userId, items } = req.body;
  if (!Array.isArray(items) || items.length === 0) {
    res.status(400).json({ error: "an order needs items" });
    return;
  }
  const total = items.reduce((sum: number, it: { price: number; qty: number }) => sum + it.price * it.qty, 0);
  const { rows } = await pool.query("INSERT INTO orders (user_id, total) VALUES ($1, $2) RETURNING id", [userId, total]);
  res.status(201).json({ id: rows[0].id, total });
}
