import { SessionManager } from "./session-manager";
import fs = require("fs");
export * from "./types";
export class AuthService extends Base implements IAuth {
  private token: Token;
  login(): void { issueToken(); this.sm.refresh(); }
}
export function isExpired(): boolean { return true; }
interface IAuth { login(): void }
type Token = string;
const handler = async () => { await import("./lazy"); };
declare function parse(s: string): Token;
