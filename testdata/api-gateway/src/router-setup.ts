import { Express, Router } from "express";
import { applyMiddleware } from "./middleware";
import { listUsers, getUser } from "./handlers/users";
import { listOrders, createOrder } from "./handlers/orders";
import { health } from "./handlers/health";

/**
 * setupRouter mounts the public API endpoints under /api/v1 and the health
 * check at the root.
 */
export function setupRouter(app: Express): void {
  applyMiddleware(app);
  const api = Router();
  api.get("/users", listUsers);
  api.get("/users/:id", getUser);
  api.get("/orders", listOrders);
  api.post("/orders", createOrder);
  app.use("/api/v1", api);
  app.get("/healthz", health);
}
