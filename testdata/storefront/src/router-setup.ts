import { Express, Router } from "express";
import { commonMiddleware } from "./middleware";
import { catalogue } from "./routes/catalogue";
import { cart } from "./routes/cart";
import { checkout } from "./routes/checkout";

/** mountRoutes wires the shop's resources under /api and the ping probe. */
export function mountRoutes(app: Express): void {
  commonMiddleware(app);
  const api = Router();
  api.use("/catalogue", catalogue);
  api.use("/cart", cart);
  api.use("/checkout", checkout);
  app.use("/api", api);
  app.get("/ping", (_req, res) => res.send("pong"));
}
