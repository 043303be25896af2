import { Express } from "express";
import { allowOrigins } from "./cors";
import { accessLog } from "./access-log";
import { throttle } from "./throttle";
import { config } from "../config";

export { allowOrigins, accessLog, throttle };

/** commonMiddleware registers what every request passes through. */
export function commonMiddleware(app: Express): void {
  app.use(accessLog());
  app.use(allowOrigins(config.corsOrigins));
}
