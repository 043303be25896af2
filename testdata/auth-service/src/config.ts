export const config = {
  tokenTtlSeconds: Number(process.env.TOKEN_TTL ?? 3600),
  refreshWindowSeconds: 300,
  jwtSecret: process.env.JWT_SECRET ?? "dev-secret",
  databaseUrl: process.env.DATABASE_URL ?? "postgres://localhost/auth",
};
