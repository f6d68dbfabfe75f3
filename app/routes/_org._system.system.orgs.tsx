import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import type { ShouldRevalidateFunction } from "@remix-run/react";
import { data } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { parseForm } from "~/lib/parse-form";
import { Alert } from "~/components/Alert";
import { formatMoney } from "@contract/money";
import { grantCreditForm, PAYMENT_MODE_LABELS, paymentModeForm, renameOrganizationForm, reverseCreditForm } from "~/features/system/org-form";
import type { OrgEditorResult } from "~/features/system/org-form";
import { OrgSearchForm } from "~/features/system/OrgSearchForm";
import { OrgTable } from "~/features/system/OrgTable";
import { orgEditorSearch, orgEditorQuery, ORG_EDITOR_PAGE } from "~/features/system/org-editor-search";
import { platformStatus, readForm, redirectWithToast } from "~/lib/actions.server";
import { isolate } from "~/lib/bidi";
import { useArrivalKey } from "~/lib/use-arrival";
import { useTimeZone } from "~/lib/use-time-zone";
import { systemApi } from "~/platform/system.server";
import { requireAccess } from "~/session.server";
import type { RouteHandle } from "~/lib/route-handle";

export const handle: RouteHandle = { title: "Org Editor" };
/** Reload after every submission, refusals included: the list may be out of date. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, defaultShouldRevalidate }) => (formMethod ? true : defaultShouldRevalidate);

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { session, api } = await requireAccess("system", request, context);
  // A page at a time, newest first: every organization with its four forms grows past what a browser lays out quickly.
  const { q, before } = orgEditorQuery(new URL(request.url).searchParams);
  const organizations = await systemApi(api).organizations({ q, before: before ?? undefined, limit: ORG_EDITOR_PAGE });
  return {
    q,
    before,
    organizations: organizations.ok ? organizations.data.data : [],
    nextBefore: organizations.ok ? organizations.data.nextBefore : null,
    loadError: organizations.ok ? null : organizations.error,
    canEdit: session.activeRole === "admin",
  };
}

const FAILED = "Failed to update organization";

export async function action({ request, context }: ActionFunctionArgs) {
  const { api } = await requireAccess("system", request, context);
  const system = systemApi(api);
  const formData = await readForm(request);
  // Back to the page the form was on: the same search, the same page of the list.
  const done = (message: string) =>
    redirectWithToast(
      `/system/orgs${orgEditorSearch(orgEditorQuery(new URL(request.url).searchParams))}`,
      { kind: "success", message },
      { headers: api.headers },
    );

  if (formData.get("intent") === "rename") {
    const submission = parseForm(formData, { schema: renameOrganizationForm });
    const orgId = Number(formData.get("orgId"));
    if (!Number.isSafeInteger(orgId) || orgId <= 0) return data<OrgEditorResult>({ intent: "payment-mode", orgId: null, message: FAILED }, 400);
    if (submission.status !== "success") return data<OrgEditorResult>({ intent: "rename", orgId, result: submission.reply() }, 400);
    const result = await system.updateOrganization(orgId, { name: submission.value.name });
    if (!result.ok) {
      // The platform names the refused field; a refusal without one is a message for the page.
      const reply = result.fields?.name ? submission.reply({ fieldErrors: { name: [result.fields.name] } }) : submission.reply();
      return data<OrgEditorResult>(
        { intent: "rename", orgId, result: reply, message: result.fields?.name ? undefined : result.error },
        platformStatus(result.status),
      );
    }
    return done(`Organization ${result.data.id} is now called ${isolate(result.data.name)}.`);
  }

  const intent = formData.get("intent");
  if (intent === "grant-credit" || intent === "reverse-credit") {
    const granting = intent === "grant-credit";
    const submission = parseForm(formData, { schema: granting ? grantCreditForm : reverseCreditForm });
    const orgId = Number(formData.get("orgId"));
    if (!Number.isSafeInteger(orgId) || orgId <= 0)
      return data<OrgEditorResult>({ intent: "payment-mode", orgId: null, message: granting ? "Failed to grant credit" : "Failed to reverse credit" }, 400);
    if (submission.status !== "success") return data<OrgEditorResult>({ intent, orgId, result: submission.reply() }, 400);
    const { amount, reason } = submission.value;
    const result = granting ? await system.grantCredit(orgId, { amount, reason }) : await system.reverseCredit(orgId, { amount, reason });
    if (!result.ok) {
      const fieldErrors = Object.fromEntries(
        Object.entries(result.fields ?? {})
          .filter(([name]) => name === "amount" || name === "reason")
          .map(([name, text]) => [name, [text]]),
      );
      const named = Object.keys(fieldErrors).length > 0;
      return data<OrgEditorResult>(
        { intent, orgId, result: named ? submission.reply({ fieldErrors }) : submission.reply(), message: named ? undefined : result.error },
        platformStatus(result.status),
      );
    }
    const balance = formatMoney(result.data.balance);
    return done(
      granting
        ? `Granted ${formatMoney(amount)} to ${isolate(result.data.name)}: Credit: ${reason}. Balance ${balance}.`
        : `Took back ${formatMoney(amount)} from ${isolate(result.data.name)}: Credit reversed: ${reason}. Balance ${balance}.`,
    );
  }

  const parsed = paymentModeForm.safeParse(Object.fromEntries(formData));
  if (!parsed.success) {
    const orgId = Number(formData.get("orgId"));
    // Only the select's own message means something to the operator; a crafted intent or id is the
    // form's failure, not zod's wording.
    const refused = parsed.error.flatten().fieldErrors;
    const message = refused.intent || refused.orgId ? FAILED : (refused.paymentMode?.[0] ?? FAILED);
    return data<OrgEditorResult>({ intent: "payment-mode", orgId: Number.isSafeInteger(orgId) && orgId > 0 ? orgId : null, message }, 400);
  }
  const result = await system.updateOrganization(parsed.data.orgId, { paymentMode: parsed.data.paymentMode });
  if (!result.ok)
    return data<OrgEditorResult>(
      { intent: "payment-mode", orgId: parsed.data.orgId, message: result.fields?.paymentMode ?? result.error },
      platformStatus(result.status),
    );
  return done(`${isolate(result.data.name)} now uses ${PAYMENT_MODE_LABELS[result.data.paymentMode]} billing.`);
}

export default function OrgEditorPage() {
  const { q, before, organizations, nextBefore, loadError, canEdit } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const timeZone = useTimeZone();
  const arrival = useArrivalKey(result);
  // A refusal takes focus where it is shown (decision 0091): in its row when the row's form shows it (credit,
  // payment mode), here otherwise (a rename the platform refused without naming the field, a row no longer
  // on this page, a form gone with the admin role).
  const shownInRow = canEdit && result?.intent !== "rename" && organizations.some((org) => org.id === result?.orgId);
  return (
    <div className="flex flex-col gap-6">
      {loadError ? <Alert kind="error">{loadError}</Alert> : null}
      {result?.message ? (
        <Alert key={arrival} kind="error" focus={!shownInRow}>
          {result.message}
        </Alert>
      ) : null}
      {/* Labelled: a rename that takes a row out of the search's results leaves focus to this heading. */}
      <section className="card bg-base-100 shadow-sm" aria-labelledby="organizations-title">
        <div className="card-body">
          <h2 id="organizations-title" className="card-title">
            Organizations
          </h2>
          <p className="text-sm text-base-content/70">
            Every organization on this platform. Prepaid organizations (manual or auto-reload) are refused priced models when their balance runs out; invoice
            organizations never are and see the amount since their last invoice.
          </p>
          <OrgSearchForm q={q} />
          {organizations.length === 0 && !loadError ? (
            <p className="text-base-content/70">{q ? `No organization's name or ID matches "${q}".` : "No organizations on this page."}</p>
          ) : (
            <OrgTable organizations={organizations} canEdit={canEdit} refusal={result ?? null} timeZone={timeZone} />
          )}
          {before || nextBefore ? (
            <nav aria-label="Organization pages" className="flex gap-2">
              {before ? (
                <Link to={`/system/orgs${orgEditorSearch({ q, before: null })}`} className="btn btn-sm btn-ghost">
                  Newest
                </Link>
              ) : null}
              {nextBefore ? (
                <Link to={`/system/orgs${orgEditorSearch({ q, before: nextBefore })}`} className="btn btn-sm">
                  Older organizations
                </Link>
              ) : null}
            </nav>
          ) : null}
          {!canEdit ? (
            <p className="text-sm text-base-content/60">
              Only admins of the system organization can rename organizations, change how they pay, or grant and reverse credit.
            </p>
          ) : null}
        </div>
      </section>
    </div>
  );
}
