import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { z } from "zod";
import { idFromUrl } from "@contract/ids";
import { safeRedirectPath } from "~/features/auth/guards";
import { pageAfterSwitch, SWITCH_FALLBACK } from "~/features/organizations/page-after-switch";
import { readForm } from "~/lib/actions.server";
import { isolate } from "~/lib/bidi";
import { platformClient } from "~/platform/client.server";
import { toastHeader } from "~/toast.server";

/** `redirectTo` is the page the switcher was on (issue 14: switching keeps it where it can). */
const switchForm = z.object({ organizationId: idFromUrl, redirectTo: z.string().max(2000).optional() });

export async function action({ request, context }: ActionFunctionArgs) {
  const api = platformClient(request, context);
  const fields = Object.fromEntries(await readForm(request));
  const form = switchForm.safeParse(fields);
  const result = form.success ? await api.switchOrganization(form.data.organizationId) : { ok: false as const, error: "Choose an organization" };
  if (!result.ok) {
    // Refused (not a member, say): the user stays where they were, in the organization they had.
    const headers = api.headers;
    headers.append("Set-Cookie", await toastHeader({ kind: "error", message: result.error }));
    return redirect(safeRedirectPath(typeof fields.redirectTo === "string" ? fields.redirectTo : null) ?? SWITCH_FALLBACK, { headers });
  }
  // The role held in the new organization decides whether its admin-only pages are open. A session
  // that cannot be read back is no reason for an error page after a switch that was made.
  const session = await api.session();
  const role = session.ok && session.data.valid ? session.data.activeRole : null;
  const headers = api.headers;
  // Said as creating or joining one says it: on /organizations the page stays as it was but for a badge,
  // and a screen reader heard nothing of the switch.
  const name = session.ok && session.data.valid ? session.data.activeOrganization?.name : undefined;
  if (name !== undefined) headers.append("Set-Cookie", await toastHeader({ kind: "success", message: `You are now working in ${isolate(name)}.` }));
  return redirect(pageAfterSwitch(form.data?.redirectTo, form.data!.organizationId, role), { headers });
}

export const loader = () => redirect("/");
