import { Request, Response } from "express";
import { AuthService } from "../../auth/auth";
import { UserRepository } from "../../users/user-repository";

export function profileHandler(auth: AuthService) {
  const users = new UserRepository();
  return async (req: Request, res: Response) => {
    const userId = auth.authenticate((req.header("authorization") ?? "").replace("Bearer ", ""));
    const user = await users.findById(userId);
    res.json({ id: user?.id, email: user?.email, name: user?.displayName });
  };
}
