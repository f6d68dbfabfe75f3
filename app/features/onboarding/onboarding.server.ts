import { data, redirect } from "@remix-run/node";
import type { SubmissionResult } from "@conform-to/react";
import { parseForm } from "~/lib/parse-form";
import type { PlatformClient } from "~/platform/client.server";
import { toastHeader } from "~/toast.server";
import type { OnboardingIntent } from "./forms";
import { onboardingSchema } from "./forms";
import { isolate } from "~/lib/bidi";

/** SPEC §8: a failed config fetch defaults to signup enabled, with a warning only. */
export async function orgSignupEnabled(api: PlatformClient): Promise<boolean> {
  const config = await api.organizationConfig();
  if (!config.ok) console.warn(`Organization config unavailable (${config.error}); assuming signup is enabled`);
  return config.ok ? config.data.orgSignupEnabled : true;
}

export type OnboardingResult = { intent: OnboardingIntent; result: SubmissionResult<string[]> };

/**
 * The create and join forms' action (SPEC §2), for /welcome and /organizations alike: on success the
 * organization becomes the active one and the user goes to /team (with a toast, when asked for one).
 */
export async function createOrJoinOrganization(api: PlatformClient, formData: FormData, options: { toast?: boolean } = {}) {
  const intent: OnboardingIntent = formData.get("intent") === "join" ? "join" : "create";
  const submission = parseForm(formData, { schema: onboardingSchema(intent) });
  if (submission.status !== "success") return data<OnboardingResult>({ intent, result: submission.reply() }, 400);
  const form = submission.value;
  const result = form.intent === "create" ? await api.createOrganization(form.name) : await api.joinOrganization(form.code);
  if (!result.ok) return data<OnboardingResult>({ intent, result: submission.reply({ formErrors: [result.error] }) }, result.status >= 500 ? 502 : 400);
  await api.switchOrganization(result.data.id);
  const headers = api.headers;
  if (options.toast) headers.append("Set-Cookie", await toastHeader({ kind: "success", message: `You are now working in ${isolate(result.data.name)}.` }));
  throw redirect("/team", { headers });
}
