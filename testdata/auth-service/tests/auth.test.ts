import { AuthService } from "../src/auth/auth";
import { SessionManager } from "../src/auth/session-manager";
import { TokenStore, issueAccessToken, isTokenExpired } from "../src/auth/tokens";
import { decodeJwt } from "../src/auth/jwt-utils";

describe("tokens", () => {
  it("a fresh token is not expired", () => {
    const token = issueAccessToken("u1");
    expect(isTokenExpired(token, decodeJwt(token.value))).toBe(false);
  });

  it("sessions close on logout", () => {
    const sessions = new SessionManager();
    const auth = new AuthService({} as any, sessions, new TokenStore());
    sessions.open("u1", issueAccessToken("u1"));
    expect(sessions.active()).toBe(1);
  });
});
