import { AccessToken, refreshAccessToken } from "./tokens";
import { config } from "../config";

interface Session {
  userId: string;
  token: AccessToken;
  lastSeen: number;
}

/**
 * SessionManager tracks the open session of each user and slides its expiry
 * forward while the user is active.
 */
export class SessionManager {
  private readonly sessions = new Map<string, Session>();

  open(userId: string, token: AccessToken): void {
    this.sessions.set(userId, { userId, token, lastSeen: Date.now() });
  }

  touch(userId: string): void {
    const s = this.sessions.get(userId);
    if (!s) return;
    s.lastSeen = Date.now();
    if (s.token.expiresAt - Date.now() / 1000 < config.refreshWindowSeconds) {
      s.token = refreshAccessToken(s.token);
    }
  }

  close(userId: string): void {
    this.sessions.delete(userId);
  }

  active(): number {
    return this.sessions.size;
  }
}
