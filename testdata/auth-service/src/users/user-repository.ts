import { User } from "./user";
import { db } from "../db/connection";

export class UserRepository {
  async findByEmail(email: string): Promise<User | undefined> {
    const row = await db.one("SELECT id, email, display_name, password_hash FROM users WHERE email = $1", [email]);
    return row ? new User(row.id, row.email, row.display_name, row.password_hash) : undefined;
  }

  async findById(id: string): Promise<User | undefined> {
    const row = await db.one("SELECT id, email, display_name, password_hash FROM users WHERE id = $1", [id]);
    return row ? new User(row.id, row.email, row.display_name, row.password_hash) : undefined;
  }

  async save(user: User): Promise<void> {
    await db.exec("UPDATE users SET email = $2, display_name = $3 WHERE id = $1", [user.id, user.email, user.displayName]);
  }
}
