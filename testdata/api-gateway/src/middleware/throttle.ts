import { Request, Response, NextFunction } from "express";

export interface ThrottleOptions {
  /** How many requests one client may send within windowMs. */
  limit: number;
  windowMs: number;
  /** Identifies the client; defaults to the remote address. */
  keyOf?: (req: Request) => string;
}

interface Window {
  startedAt: number;
  count: number;
}

/**
 * throttle allows each client at most opts.limit requests per time window and
 * answers 429 Too Many Requests past the limit, with a Retry-After header.
 */
export function throttle(opts: ThrottleOptions) {
  const windows = new Map<string, Window>();
  const keyOf = opts.keyOf ?? ((req: Request) => req.ip ?? "unknown");
  return (req: Request, res: Response, next: NextFunction) => {
    const key = keyOf(req);
    const now = Date.now();
    let w = windows.get(key);
    if (!w || now - w.startedAt >= opts.windowMs) {
      w = { startedAt: now, count: 0 };
      windows.set(key, w);
    }
    w.count++;
    if (w.count > opts.limit) {
      const retryAfter = Math.ceil((w.startedAt + opts.windowMs - now) / 1000);
      res.setHeader("Retry-After", String(retryAfter));
      res.status(429).json({ error: "too many requests" });
      return;
    }
    next();
  };
}
