import { refreshToken } from "./api";

export async function onLoad(): Promise<void> {
  const token = await refreshToken();
  console.log("token", token);
}
