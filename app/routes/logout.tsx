import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { platformClient } from "~/platform/client.server";

export async function action({ request, context }: ActionFunctionArgs) {
  const api = platformClient(request, context);
  await api.logout();
  return redirect("/login", { headers: api.headers });
}

export const loader = () => redirect("/");
