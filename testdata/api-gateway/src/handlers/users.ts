import { Request, Response } from "express";
import { pool } from "../db/pool";

export async function listUsers(req: Request, res: Response) {
  const limit = Math.min(Number(req.query.limit ?? 50), 200);
  const { rows } = await pool.query("SELECT id, name FROM users ORDER BY id LIMIT $1", [limit]);
  res.json(rows);
}

export async function getUser(req: Request, res: Response) {
  const { rows } = await pool.query("SELECT id, name FROM users WHERE id = $1", [req.params.id]);
  if (rows.length === 0) {
    res.status(404).json({ error: "not found" });
    return;
  }
  res.json(rows[0]);
}
