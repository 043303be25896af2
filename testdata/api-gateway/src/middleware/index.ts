import { Express } from "express";
import { cors } from "./cors";
import { requestLog } from "./request-log";
import { throttle } from "./throttle";
import { settings } from "../settings";

export { cors, requestLog, throttle };

/** applyMiddleware installs the middleware chain shared by every route. */
export function applyMiddleware(app: Express): void {
  app.use(requestLog());
  app.use(cors(settings.allowedOrigins));
}
