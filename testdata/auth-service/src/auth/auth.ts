import { SessionManager } from "./session-manager";
import { TokenStore, isTokenExpired, issueAccessToken } from "./tokens";
import { decodeJwt, verifySignature } from "./jwt-utils";
import { UserRepository } from "../users/user-repository";
import { logger } from "../logger";

export interface Credentials {
  email: string;
  password: string;
}

export class AuthenticationError extends Error {}

/**
 * AuthService authenticates requests: it checks credentials at login and
 * validates the bearer token on every request.
 */
export class AuthService {
  constructor(
    private readonly users: UserRepository,
    private readonly sessions: SessionManager,
    private readonly store: TokenStore,
  ) {}

  async login(creds: Credentials): Promise<string> {
    const user = await this.users.findByEmail(creds.email);
    if (!user || !(await user.checkPassword(creds.password))) {
      throw new AuthenticationError("invalid email or password");
    }
    const token = issueAccessToken(user.id);
    this.sessions.open(user.id, token);
    this.store.save(token);
    logger.info("login", { user: user.id });
    return token.value;
  }

  authenticate(bearer: string): string {
    const claims = decodeJwt(bearer);
    if (!verifySignature(bearer)) {
      throw new AuthenticationError("bad signature");
    }
    const token = this.store.find(bearer);
    if (!token || isTokenExpired(token, claims)) {
      this.sessions.close(claims.sub);
      throw new AuthenticationError("token expired");
    }
    this.sessions.touch(claims.sub);
    return claims.sub;
  }

  logout(bearer: string): void {
    const claims = decodeJwt(bearer);
    this.store.revoke(bearer);
    this.sessions.close(claims.sub);
  }
}
