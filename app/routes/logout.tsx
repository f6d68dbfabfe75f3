import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { SESSION_COOKIE } from "@contract/session";
import { consoleCookieSettings } from "~/cookies.server";
import { platformClient } from "~/platform/client.server";
import { toastHeader } from "~/toast.server";

export const LOGOUT_INCOMPLETE =
  "Failed to logout: the server could not be reached. This browser is signed out, but the session stays valid until it expires or you sign out again.";

export async function action({ request, context }: ActionFunctionArgs) {
  const api = platformClient(request, context);
  const result = await api.logout();
  if (result.ok) return redirect("/login", { headers: api.headers });
  // The platform could not end the session (it is down): this browser forgets it anyway, so a shared
  // computer is not left signed in, and the person is told the session itself still stands.
  const headers = new Headers(api.headers);
  const secure = consoleCookieSettings().secure ? "; Secure" : "";
  headers.append("Set-Cookie", `${SESSION_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax${secure}`);
  headers.append("Set-Cookie", await toastHeader({ kind: "error", message: LOGOUT_INCOMPLETE }));
  return redirect("/login", { headers });
}

export const loader = () => redirect("/");
