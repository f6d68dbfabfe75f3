import { consoleCookie } from "./cookies.server";

export interface Toast {
  kind: "success" | "error" | "info";
  message: string;
}

/** A message that outlives a redirect: written by an action, read and cleared by the root loader. */
const toastCookie = consoleCookie("toast", { httpOnly: true, sameSite: "lax", path: "/", maxAge: 60 });

export async function toastHeader(toast: Toast): Promise<string> {
  return toastCookie().serialize(toast);
}

export async function takeToast(request: Request): Promise<{ toast: Toast | null; header: string | null }> {
  const toast = ((await toastCookie().parse(request.headers.get("cookie"))) as Toast | null) ?? null;
  return { toast, header: toast ? await toastCookie().serialize("", { maxAge: 0 }) : null };
}
