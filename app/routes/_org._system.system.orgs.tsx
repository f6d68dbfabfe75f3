import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import type { ShouldRevalidateFunction } from "@remix-run/react";
import { data } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { orgEditorForm, PAYMENT_MODE_LABELS } from "~/features/system/org-form";
import type { RowFeedback } from "~/features/system/OrgTable";
import { OrgTable } from "~/features/system/OrgTable";
import { useTimeZone } from "~/lib/use-time-zone";
import { systemApi } from "~/platform/system.server";
import { requireAccess } from "~/session.server";
import type { RouteHandle } from "./_org";
import { Alert } from "~/components/Alert";

export const handle: RouteHandle = { title: "Org Editor" };
export const meta: MetaFunction = () => [{ title: "Org Editor · AI Console" }];
/** Reload after every submission, refusals included: the list may be out of date. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, defaultShouldRevalidate }) => (formMethod ? true : defaultShouldRevalidate);

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { session, api } = await requireAccess("system", request, context);
  const organizations = await systemApi(api).organizations();
  return {
    organizations: organizations.ok ? organizations.data.data : [],
    loadError: organizations.ok ? null : organizations.error,
    canEdit: session.activeRole === "admin",
  };
}

export type OrgEditorResult = RowFeedback | { ok: false; orgId: null; message: string };

function status(code: number) {
  return code >= 500 ? 502 : code;
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { api } = await requireAccess("system", request, context);
  const fields = Object.fromEntries(await request.formData());
  const parsed = orgEditorForm.safeParse(fields);
  const orgId = Number(fields.orgId);
  if (!parsed.success) {
    const message = parsed.error.issues[0]?.message ?? "Failed to update organization";
    if (!Number.isSafeInteger(orgId) || orgId <= 0) return data<OrgEditorResult>({ ok: false, orgId: null, message: "Failed to update organization" }, 400);
    const intent = fields.intent === "payment-mode" ? "payment-mode" : "rename";
    return data<OrgEditorResult>({ ok: false, orgId, intent, message, name: typeof fields.name === "string" ? fields.name : undefined }, 400);
  }
  const form = parsed.data;
  const change = form.intent === "rename" ? { name: form.name } : { paymentMode: form.paymentMode };
  const result = await systemApi(api).updateOrganization(form.orgId, change);
  if (!result.ok) {
    const message = result.error.replace(/^name: /, "");
    return data<OrgEditorResult>({ ok: false, orgId: form.orgId, intent: form.intent, message, name: form.intent === "rename" ? form.name : undefined }, status(result.status));
  }
  const org = result.data;
  const message = form.intent === "rename" ? `Organization ${org.id} is now called ${org.name}.` : `${org.name} now uses ${PAYMENT_MODE_LABELS[org.paymentMode]} billing.`;
  return data<OrgEditorResult>({ ok: true, orgId: org.id, intent: form.intent, message });
}

export default function OrgEditorPage() {
  const { organizations, loadError, canEdit } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const timeZone = useTimeZone();
  const rowFeedback = result && result.orgId !== null ? (result as RowFeedback) : null;
  return (
    <div className="flex flex-col gap-6">
      {loadError ? <Alert kind="error">{loadError}</Alert> : null}
      {result && !result.ok ? <Alert kind="error">{result.message}</Alert> : null}
      {result?.ok ? <Alert kind="success">{result.message}</Alert> : null}
      <section className="card bg-base-100 shadow-sm">
        <div className="card-body">
          <h2 className="card-title">Organizations</h2>
          <p className="text-sm text-base-content/70">
            Every organization on this platform. Prepaid organizations (manual or auto-reload) are refused priced models when their balance runs out; invoice organizations never are and see the amount since their last invoice.
          </p>
          <OrgTable organizations={organizations} canEdit={canEdit} feedback={rowFeedback} timeZone={timeZone} />
          {!canEdit ? <p className="text-sm text-base-content/60">Only admins of the system organization can rename organizations or change how they pay.</p> : null}
        </div>
      </section>
    </div>
  );
}
