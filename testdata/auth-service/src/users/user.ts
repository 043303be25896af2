import { hash, compare } from "bcryptjs";

/** User is an account of the web app. */
export class User {
  constructor(
    public readonly id: string,
    public email: string,
    public displayName: string,
    private passwordHash: string,
    public createdAt: Date = new Date(),
  ) {}

  async checkPassword(plain: string): Promise<boolean> {
    return compare(plain, this.passwordHash);
  }

  async setPassword(plain: string): Promise<void> {
    this.passwordHash = await hash(plain, 12);
  }

  rename(displayName: string): void {
    if (displayName.trim() === "") {
      throw new Error("display name must not be empty");
    }
    this.displayName = displayName;
  }
}
