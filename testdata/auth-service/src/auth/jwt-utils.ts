import { createHmac } from "crypto";
import { config } from "../config";

export interface JwtClaims {
  sub: string;
  iat: number;
  exp: number;
  jti?: string;
}

function base64url(input: string): string {
  return Buffer.from(input).toString("base64url");
}

export function signJwt(claims: JwtClaims): string {
  const header = base64url(JSON.stringify({ alg: "HS256", typ: "JWT" }));
  const body = base64url(JSON.stringify(claims));
  const sig = createHmac("sha256", config.jwtSecret).update(`${header}.${body}`).digest("base64url");
  return `${header}.${body}.${sig}`;
}

export function decodeJwt(jwt: string): JwtClaims {
  const [, body] = jwt.split(".");
  return JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
}

export function verifySignature(jwt: string): boolean {
  const [header, body, sig] = jwt.split(".");
  const want = createHmac("sha256", config.jwtSecret).update(`${header}.${body}`).digest("base64url");
  return sig === want;
}

/** expiryOf returns the exp claim, in seconds since the epoch. */
export function expiryOf(claims: JwtClaims): number {
  return claims.exp;
}
