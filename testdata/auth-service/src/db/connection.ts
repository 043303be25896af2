import { Pool } from "pg";
import { config } from "../config";

const pool = new Pool({ connectionString: config.databaseUrl });

export const db = {
  async one(sql: string, params: unknown[]): Promise<any> {
    const res = await pool.query(sql, params);
    return res.rows[0];
  },
  async exec(sql: string, params: unknown[]): Promise<void> {
    await pool.query(sql, params);
  },
};
