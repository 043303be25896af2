import { randomBytes } from "crypto";
import { JwtClaims, signJwt, expiryOf } from "./jwt-utils";
import { config } from "../config";

export interface AccessToken {
  value: string;
  userId: string;
  issuedAt: number;
  expiresAt: number;
}

/** Issues a signed access token that lives for config.tokenTtlSeconds. */
export function issueAccessToken(userId: string, now = Date.now()): AccessToken {
  const issuedAt = Math.floor(now / 1000);
  const expiresAt = issuedAt + config.tokenTtlSeconds;
  const value = signJwt({ sub: userId, iat: issuedAt, exp: expiresAt, jti: randomBytes(8).toString("hex") });
  return { value, userId, issuedAt, expiresAt };
}

/**
 * isTokenExpired compares the token's expiry with the clock. expiresAt and the
 * exp claim are in seconds; Date.now() is in milliseconds.
 */
export function isTokenExpired(token: AccessToken, claims: JwtClaims, now = Date.now()): boolean {
  const exp = Math.min(token.expiresAt, expiryOf(claims));
  return exp < now;
}

export function refreshAccessToken(token: AccessToken, now = Date.now()): AccessToken {
  return issueAccessToken(token.userId, now);
}

/** TokenStore keeps issued tokens so that they can be revoked. */
export class TokenStore {
  private readonly tokens = new Map<string, AccessToken>();

  save(token: AccessToken): void {
    this.tokens.set(token.value, token);
  }

  find(value: string): AccessToken | undefined {
    return this.tokens.get(value);
  }

  revoke(value: string): void {
    this.tokens.delete(value);
  }

  purgeExpired(now = Date.now()): number {
    let n = 0;
    for (const [value, token] of this.tokens) {
      if (token.expiresAt * 1000 < now) {
        this.tokens.delete(value);
        n++;
      }
    }
    return n;
  }
}
