export const logger = {
  info(msg: string, fields: Record<string, unknown> = {}): void {
    console.log(JSON.stringify({ level: "info", msg, ...fields }));
  },
  error(msg: string, fields: Record<string, unknown> = {}): void {
    console.error(JSON.stringify({ level: "error", msg, ...fields }));
  },
};
