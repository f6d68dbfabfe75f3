import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { z } from "zod";
import { platformClient } from "~/platform/client.server";
import { toastHeader } from "~/toast.server";

const switchForm = z.object({ organizationId: z.coerce.number().int().positive() });

export async function action({ request, context }: ActionFunctionArgs) {
  const api = platformClient(request, context);
  const form = switchForm.safeParse(Object.fromEntries(await request.formData()));
  const result = form.success ? await api.switchOrganization(form.data.organizationId) : { ok: false as const, error: "Choose an organization" };
  const headers = api.headers;
  if (!result.ok) headers.append("Set-Cookie", await toastHeader({ kind: "error", message: result.error }));
  // Organization-scoped pages show another organization's data now: start again from the team page.
  return redirect("/team", { headers });
}

export const loader = () => redirect("/");
