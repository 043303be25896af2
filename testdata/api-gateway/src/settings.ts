export const settings = {
  port: Number(process.env.PORT ?? 8080),
  allowedOrigins: (process.env.ALLOWED_ORIGINS ?? "http://localhost:3000").split(","),
  throttle: { limit: 100, windowMs: 60_000 },
  databaseUrl: process.env.DATABASE_URL ?? "postgres://localhost/gateway",
};
