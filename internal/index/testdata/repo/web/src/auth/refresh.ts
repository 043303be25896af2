export function refresh(token: string): boolean {
  return token.length > 0
}
