import { Request, Response, NextFunction } from "express";

type Bucket = { opened: number; hits: number };

/**
 * throttle lets each client address make maxRequests calls per windowMs.
 * Further calls in the same window get 429 Too Many Requests and a
 * Retry-After header saying when the window reopens.
 */
export function throttle(maxRequests: number, windowMs: number) {
  const buckets = new Map<string, Bucket>();
  return (req: Request, res: Response, next: NextFunction) => {
    const who = req.ip ?? "anonymous";
    const now = Date.now();
    let b = buckets.get(who);
    if (!b || now - b.opened >= windowMs) {
      b = { opened: now, hits: 0 };
      buckets.set(who, b);
    }
    b.hits += 1;
    if (b.hits > maxRequests) {
      res.setHeader("Retry-After", String(Math.ceil((b.opened + windowMs - now) / 1000)));
      res.status(429).send({ error: "slow down" });
      return;
    }
    next();
  };
}
