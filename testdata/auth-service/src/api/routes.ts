import { Router } from "express";
import { AuthService } from "../auth/auth";
import { profileHandler } from "./handlers/profile";

export function routes(auth: AuthService): Router {
  const r = Router();
  r.post("/login", async (req, res) => {
    res.json({ token: await auth.login(req.body) });
  });
  r.post("/logout", (req, res) => {
    auth.logout(req.header("authorization") ?? "");
    res.status(204).end();
  });
  r.get("/me", profileHandler(auth));
  return r;
}
