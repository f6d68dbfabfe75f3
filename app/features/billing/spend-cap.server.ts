import { data } from "@remix-run/node";
import { parseForm } from "~/lib/parse-form";
import { spendCapStateSchema } from "@contract/billing";
import { formatMoney } from "@contract/money";
import { platformStatus, redirectWithToast } from "~/lib/actions.server";
import type { PlatformClient } from "~/platform/client.server";
import { spendCapForm } from "./spend-cap-form";

/** The organization's monthly cap and what the month has spent, or null when it could not be read. */
export async function loadSpendCap(api: PlatformClient) {
  const result = await api.call("GET", "/billing/spend-cap", spendCapStateSchema, "Failed to load the monthly spend cap.");
  return result.ok ? result.data : null;
}

/** The /billing action's "spend-cap" intent (admins; the platform checks the role again). */
export async function spendCapAction(formData: FormData, api: PlatformClient) {
  const submission = parseForm(formData, { schema: spendCapForm });
  if (submission.status !== "success") return data({ intent: "spend-cap" as const, result: submission.reply() }, 400);
  const monthlyCap = submission.value.monthlyCap ?? null;
  const result = await api.call("POST", "/billing/spend-cap", spendCapStateSchema, "Failed to save the monthly spend cap.", { monthlyCap });
  if (!result.ok) {
    const message = result.fields?.monthlyCap;
    const reply = message ? submission.reply({ fieldErrors: { monthlyCap: [message] } }) : submission.reply({ formErrors: [result.error] });
    return data({ intent: "spend-cap" as const, result: reply }, { status: platformStatus(result.status), headers: api.headers });
  }
  const text = monthlyCap === null ? "Monthly spend cap removed." : `Monthly spend cap set to ${formatMoney(monthlyCap)}.`;
  return redirectWithToast("/billing", { kind: "success", message: text }, { headers: api.headers });
}
