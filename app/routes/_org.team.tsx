import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import type { ShouldRevalidateFunction } from "@remix-run/react";
import { data, redirect } from "@remix-run/node";
import { MEMBER_PAGE_SIZE } from "@contract/team";
import { INVITE_PAGE_SIZE } from "@contract/orgs";
import { useActionData, useLoaderData } from "@remix-run/react";
import type { SubmissionResult } from "@conform-to/react";
import { parseForm } from "~/lib/parse-form";
import { z } from "zod";
import { idFromUrl } from "@contract/ids";
import { InviteList } from "~/features/team/InviteList";
import { InvitePanel } from "~/features/team/InvitePanel";
import { inviteForm, inviteRequest } from "~/features/team/invite-forms";
import { useTimeZone } from "~/lib/use-time-zone";
import { MemberTable } from "~/features/team/MemberTable";
import { removedText, REVOKE_MADE_UNSUPPORTED } from "~/features/team/member-rules";
import { teamQuery, teamHref } from "~/features/team/team-query";
import { keysetPage, pageFrom } from "~/lib/keyset-page";
import { platformStatus, readForm, redirectWithToast } from "~/lib/actions.server";
import { isolate } from "~/lib/bidi";
import { teamApi } from "~/platform/team.server";
import { requireAccess } from "~/session.server";
import type { RouteHandle } from "~/lib/route-handle";
import { Alert } from "~/components/Alert";
import { FormRefusalAlert } from "~/components/FormRefusalAlert";
import { useArrivalKey } from "~/lib/use-arrival";

export const handle: RouteHandle = { title: "Team" };

/** Reload after every submission, refusals included: a 409 usually means the list is out of date. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, defaultShouldRevalidate }) => (formMethod ? true : defaultShouldRevalidate);

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { session, api } = await requireAccess("organization", request, context);
  const team = teamApi(api);
  const isAdmin = session.activeRole === "admin";
  const query = teamQuery(new URL(request.url));
  const { q, after, before, invitesBefore, invitesAfter } = query;
  // Members don't see invite codes: only admins ask for them (the platform refuses the others anyway).
  // One more than a page of each: it says whether there is a next one (or, going back, a previous one).
  const [members, invites] = await Promise.all([
    team.members({ q, after, before, limit: MEMBER_PAGE_SIZE + 1 }),
    isAdmin ? team.invites({ before: invitesBefore, after: invitesAfter, limit: INVITE_PAGE_SIZE + 1 }) : null,
  ]);
  // A page reached by a cursor that is empty now (the member it started from left, its codes were all
  // revoked or used): that page is no more, so the first page of that list, the other one kept.
  const membersGone = members.ok && members.data.length === 0 && (after ?? before) !== undefined;
  const invitesGone = invites?.ok === true && invites.data.length === 0 && (invitesAfter ?? invitesBefore) !== undefined;
  if (membersGone || invitesGone)
    throw redirect(
      teamHref({
        ...query,
        ...(membersGone ? { after: undefined, before: undefined } : {}),
        ...(invitesGone ? { invitesAfter: undefined, invitesBefore: undefined } : {}),
      }),
    );
  return {
    viewer: { userId: session.user.id, role: session.activeRole },
    query,
    page: keysetPage(members.ok ? members.data : [], pageFrom(after, before), MEMBER_PAGE_SIZE),
    // Newest first: older codes are the next page (`invitesBefore`), newer the previous one.
    invites: keysetPage(invites?.ok ? invites.data : [], pageFrom(invitesBefore, invitesAfter), INVITE_PAGE_SIZE),
    loadError: members.ok ? (invites && !invites.ok ? invites.error : null) : members.error,
  };
}

/** The one-button forms (decision 0081); the invite form has fields and its own schema. */
const teamForm = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("role"), memberId: idFromUrl, role: z.enum(["admin", "member"]) }),
  // The question's checkbox: checked, the tokens and codes the member made are revoked with them.
  z.object({ intent: z.literal("remove"), memberId: idFromUrl, revokeMade: z.literal("true").optional() }),
  z.object({ intent: z.literal("revoke-invite"), inviteId: idFromUrl }),
]);

/** SPEC §8 defaults, per form. */
const FAILED = { role: "Failed to update role", remove: "Failed to remove member", "revoke-invite": "Failed to revoke invite" } as const;

type Intent = keyof typeof FAILED;
/** A new invite code travels in action data (decision 0081); the other successes redirect with a toast. */
export type TeamActionResult =
  | { ok: true; intent: "invite"; invite: { code: string; kind: "single-use" | "multi-use" }; result: SubmissionResult<string[]> }
  | { ok: false; intent: "invite"; result: SubmissionResult<string[]> }
  | { ok: false; intent: Intent; message: string };

export async function action({ request, context }: ActionFunctionArgs) {
  const { api } = await requireAccess("organization", request, context);
  // Back to the search and pages the form was on.
  const back = teamHref(teamQuery(new URL(request.url)));
  const formData = await readForm(request);
  const team = teamApi(api);
  if (formData.get("intent") === "invite") {
    const submission = parseForm(formData, { schema: inviteForm });
    if (submission.status !== "success") return data<TeamActionResult>({ ok: false, intent: "invite", result: submission.reply() }, 400);
    const result = await team.invite(inviteRequest(submission.value, Date.now()));
    if (!result.ok) {
      const reply = result.fields
        ? submission.reply({ fieldErrors: Object.fromEntries(Object.entries(result.fields).map(([k, v]) => [k === "expiresAt" ? "expiry" : k, [v]])) })
        : submission.reply({ formErrors: [result.error] });
      return data<TeamActionResult>({ ok: false, intent: "invite", result: reply }, platformStatus(result.status));
    }
    return data<TeamActionResult>({
      ok: true,
      intent: "invite",
      invite: { code: result.data.code, kind: submission.value.kind },
      result: submission.reply({ resetForm: true }),
    });
  }
  const fields = Object.fromEntries(formData);
  const parsed = teamForm.safeParse(fields);
  if (!parsed.success) {
    const intent: Intent = fields.intent === "remove" || fields.intent === "revoke-invite" ? fields.intent : "role";
    return data<TeamActionResult>({ ok: false, intent, message: FAILED[intent] }, 400);
  }
  const form = parsed.data;
  if (form.intent === "revoke-invite") {
    const result = await team.revokeInvite(form.inviteId);
    if (!result.ok) return data<TeamActionResult>({ ok: false, intent: "revoke-invite", message: result.error }, platformStatus(result.status));
    return redirectWithToast(back, { kind: "success", message: "Invite code revoked." }, { headers: api.headers });
  }
  if (form.intent === "role") {
    const result = await team.changeRole(form.memberId, form.role);
    if (!result.ok) return data<TeamActionResult>({ ok: false, intent: "role", message: result.error }, platformStatus(result.status));
    return redirectWithToast(
      back,
      { kind: "success", message: `${isolate(result.data.name)} is now ${result.data.role === "admin" ? "an Admin" : "a Member"}.` },
      { headers: api.headers },
    );
  }
  const revokeMade = form.revokeMade === "true";
  const result = await team.remove(form.memberId, { revokeMade });
  if (!result.ok) return data<TeamActionResult>({ ok: false, intent: "remove", message: result.error }, platformStatus(result.status));
  const message = removedText(result.data, revokeMade);
  return redirectWithToast(back, { kind: message === REVOKE_MADE_UNSUPPORTED ? "info" : "success", message }, { headers: api.headers });
}

export default function TeamPage() {
  const { viewer, query, page, invites, loadError } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const arrival = useArrivalKey(result);
  const timeZone = useTimeZone();
  const isAdmin = viewer.role === "admin";
  return (
    <div className="flex flex-col gap-6">
      {loadError ? <Alert kind="error">{loadError}</Alert> : null}
      {result && "message" in result ? (
        <Alert key={arrival} kind="error" focus>
          {result.message}
        </Alert>
      ) : null}
      {!isAdmin && result && !result.ok && "result" in result ? <FormRefusalAlert key={arrival} result={result.result} /> : null}
      {isAdmin ? <InvitePanel invite={result?.ok ? result.invite : null} lastResult={result?.intent === "invite" ? result.result : undefined} /> : null}
      {isAdmin ? <InviteList page={invites} query={query} timeZone={timeZone} /> : null}
      <MemberTable page={page} query={query} viewer={viewer} />
      {!isAdmin ? <p className="text-sm text-base-content/60">Only admins can invite people and change roles.</p> : null}
    </div>
  );
}
