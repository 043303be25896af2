import { Pool } from "pg";
import { settings } from "../settings";

/** pool is shared by all handlers; max bounds open connections. */
export const pool = new Pool({ connectionString: settings.databaseUrl, max: 10 });
