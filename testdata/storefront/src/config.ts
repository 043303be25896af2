export const config = {
  port: Number(process.env.PORT ?? 8080),
  catalogueUrl: process.env.CATALOGUE_URL ?? "http://localhost:9000",
  corsOrigins: (process.env.CORS_ORIGINS ?? "").split(",").filter(Boolean),
  burst: { maxRequests: 120, windowMs: 60_000 },
};
