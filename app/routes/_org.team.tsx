import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import type { ShouldRevalidateFunction } from "@remix-run/react";
import { data } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { InvitePanel } from "~/features/team/InvitePanel";
import { MemberTable } from "~/features/team/MemberTable";
import { platformStatus, readForm, redirectWithToast } from "~/lib/actions.server";
import { teamApi } from "~/platform/team.server";
import { requireAccess } from "~/session.server";
import type { RouteHandle } from "./_org";
import { Alert } from "~/components/Alert";
import { useArrivalKey } from "~/lib/use-arrival";

export const handle: RouteHandle = { title: "Team" };
/** Reload after every submission, refusals included: a 409 usually means the list is out of date. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, defaultShouldRevalidate }) => (formMethod ? true : defaultShouldRevalidate);
export const meta: MetaFunction = () => [{ title: "Team · AI Console" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { session, api } = await requireAccess("organization", request, context);
  const members = await teamApi(api).members();
  return {
    viewer: { userId: session.user.id, role: session.activeRole },
    members: members.ok ? members.data : [],
    loadError: members.ok ? null : members.error,
  };
}

const teamForm = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("invite"), kind: z.enum(["single-use", "multi-use"]) }),
  z.object({ intent: z.literal("role"), memberId: z.coerce.number().int().positive(), role: z.enum(["admin", "member"]) }),
  z.object({ intent: z.literal("remove"), memberId: z.coerce.number().int().positive() }),
]);

/** SPEC §8 defaults, per form. */
const FAILED = { invite: "Failed to generate invite", role: "Failed to update role", remove: "Failed to remove member" } as const;

type Intent = keyof typeof FAILED;
/** An invite code is shown once, so it travels in action data; the other successes redirect with a toast. */
export type TeamActionResult =
  { ok: true; intent: "invite"; invite: { code: string; kind: "single-use" | "multi-use" } } | { ok: false; intent: Intent; message: string };

export async function action({ request, context }: ActionFunctionArgs) {
  const { api } = await requireAccess("organization", request, context);
  const fields = Object.fromEntries(await readForm(request));
  const parsed = teamForm.safeParse(fields);
  if (!parsed.success) {
    const intent: Intent = fields.intent === "role" || fields.intent === "remove" ? fields.intent : "invite";
    return data<TeamActionResult>({ ok: false, intent, message: FAILED[intent] }, 400);
  }
  const form = parsed.data;
  const team = teamApi(api);
  if (form.intent === "invite") {
    const result = await team.invite(form.kind);
    if (!result.ok) return data<TeamActionResult>({ ok: false, intent: "invite", message: result.error }, platformStatus(result.status));
    return data<TeamActionResult>({ ok: true, intent: "invite", invite: { code: result.data.code, kind: form.kind } });
  }
  if (form.intent === "role") {
    const result = await team.changeRole(form.memberId, form.role);
    if (!result.ok) return data<TeamActionResult>({ ok: false, intent: "role", message: result.error }, platformStatus(result.status));
    return redirectWithToast(
      "/team",
      { kind: "success", message: `${result.data.name} is now ${result.data.role === "admin" ? "an Admin" : "a Member"}.` },
      { headers: api.headers },
    );
  }
  const result = await team.remove(form.memberId);
  if (!result.ok) return data<TeamActionResult>({ ok: false, intent: "remove", message: result.error }, platformStatus(result.status));
  return redirectWithToast("/team", { kind: "success", message: "Member removed." }, { headers: api.headers });
}

export default function TeamPage() {
  const { viewer, members, loadError } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const arrival = useArrivalKey(result);
  const isAdmin = viewer.role === "admin";
  return (
    <div className="flex flex-col gap-6">
      {loadError ? <Alert kind="error">{loadError}</Alert> : null}
      {result && !result.ok ? (
        <Alert key={arrival} kind="error" focus>
          {result.message}
        </Alert>
      ) : null}
      {isAdmin ? <InvitePanel invite={result?.ok ? result.invite : null} /> : null}
      <MemberTable members={members} viewer={viewer} />
      {!isAdmin ? <p className="text-sm text-base-content/60">Only admins can invite people and change roles.</p> : null}
    </div>
  );
}
