import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import type { SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useHydrated } from "remix-utils/use-hydrated";
import { Alert } from "~/components/Alert";
import { createOrganizationForm, joinOrganizationForm } from "~/features/onboarding/forms";
import { readForm } from "~/lib/actions.server";
import { useIsPending } from "~/lib/use-is-pending";
import { platformClient } from "~/platform/client.server";
import { requireAccess } from "~/session.server";

export const meta: MetaFunction = () => [{ title: "Welcome · AI Console" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { session, api } = await requireAccess("welcome", request, context);
  const config = await api.organizationConfig();
  // SPEC §8: a failed config fetch defaults to signup enabled, with a warning only.
  if (!config.ok) console.warn(`Organization config unavailable (${config.error}); assuming signup is enabled`);
  return { user: session.user, orgSignupEnabled: config.ok ? config.data.orgSignupEnabled : true };
}

type OnboardingIntent = "create" | "join";
export type WelcomeActionResult = { intent: OnboardingIntent; result: SubmissionResult<string[]> } | { intent: "logout"; logoutFailed: true };

const schemaOf = (intent: OnboardingIntent) => (intent === "join" ? joinOrganizationForm : createOrganizationForm);

export async function action({ request, context }: ActionFunctionArgs) {
  const api = platformClient(request, context);
  const formData = await readForm(request);
  if (formData.get("intent") === "logout") {
    const result = await api.logout();
    if (!result.ok) return data<WelcomeActionResult>({ intent: "logout", logoutFailed: true }, 502);
    throw redirect("/login", { headers: api.headers });
  }
  const intent: OnboardingIntent = formData.get("intent") === "join" ? "join" : "create";
  const submission = parseWithZod(formData, { schema: schemaOf(intent) });
  if (submission.status !== "success") return data<WelcomeActionResult>({ intent, result: submission.reply() }, 400);
  const form = submission.value;
  const result = form.intent === "create" ? await api.createOrganization(form.name) : await api.joinOrganization(form.code);
  if (!result.ok) return data<WelcomeActionResult>({ intent, result: submission.reply({ formErrors: [result.error] }) }, result.status >= 500 ? 502 : 400);
  // SPEC §2: on success, switch to that organization and go to /team.
  await api.switchOrganization(result.data.id);
  throw redirect("/team", { headers: api.headers });
}

export default function Welcome() {
  const { user, orgSignupEnabled } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useIsPending();

  if (result && "logoutFailed" in result) {
    return (
      <main className="grid min-h-screen place-items-center p-6">
        <Alert kind="error" className="text-xl font-semibold">
          Error: Failed to logout
        </Alert>
      </main>
    );
  }
  const resultFor = (intent: OnboardingIntent) => (result && "result" in result && result.intent === intent ? result.result : undefined);

  return (
    <main className="grid min-h-screen place-items-center p-4">
      <div className="card w-full max-w-lg bg-base-100 shadow-lg">
        <div className="card-body gap-6">
          <div>
            <h1 className="text-2xl font-bold">Welcome, {user.name}</h1>
            <p className="text-base-content/70">{user.email}</p>
          </div>
          {orgSignupEnabled ? (
            <OrgForm
              intent="create"
              field="name"
              label="Create an organization"
              placeholder="My Organization"
              helper="Choose a name for your organization"
              button="Create Organization"
              busyLabel="Creating..."
              disabled={busy}
              lastResult={resultFor("create")}
            />
          ) : (
            <p>Get started by entering your invite code.</p>
          )}
          {orgSignupEnabled ? <div className="divider my-0">or</div> : null}
          <OrgForm
            intent="join"
            field="code"
            label="Join with an invite code"
            placeholder="Enter invite code"
            helper="Enter the invite code provided by your organization"
            button="Join Organization"
            busyLabel="Joining..."
            disabled={busy}
            lastResult={resultFor("join")}
          />
          <Form method="post" className="flex justify-end">
            <button type="submit" name="intent" value="logout" className="btn btn-ghost btn-sm" disabled={busy}>
              Sign Out
            </button>
          </Form>
        </div>
      </div>
    </main>
  );
}

interface OrgFormProps {
  intent: OnboardingIntent;
  field: "name" | "code";
  label: string;
  placeholder: string;
  helper: string;
  button: string;
  busyLabel: string;
  /** Another onboarding form is being submitted. */
  disabled: boolean;
  lastResult: SubmissionResult<string[]> | undefined;
}

/** One onboarding form: trimmed value, submit disabled while blank (after hydration) or busy (SPEC §5). */
function OrgForm({ intent, field: name, label, placeholder, helper, button, busyLabel, disabled, lastResult }: OrgFormProps) {
  const schema = schemaOf(intent);
  const [form, fields] = useForm({
    id: intent,
    lastResult,
    constraint: getZodConstraint(schema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    shouldRevalidate: "onInput",
  });
  const hydrated = useHydrated();
  const pending = useIsPending({ intent });
  const field = fields[name];
  // The platform's refusal (an unknown code) shows where a field error would.
  const error = field.errors?.[0] ?? form.errors?.[0] ?? null;
  const blank = String(field.value ?? "").trim() === "";
  const { key, ...inputProps } = getInputProps(field, { type: "text" });
  return (
    <Form method="post" className="flex flex-col gap-2" aria-labelledby={`${field.id}-label`} {...getFormProps(form)}>
      <input type="hidden" name="intent" value={intent} />
      <label id={`${field.id}-label`} htmlFor={field.id} className="font-semibold">
        {label}
      </label>
      <input
        key={key}
        {...inputProps}
        className={`input w-full ${error ? "input-error" : ""}`}
        placeholder={placeholder}
        autoComplete="off"
        aria-describedby={`${field.descriptionId}${error ? ` ${field.errorId}` : ""}`}
        aria-invalid={error ? true : undefined}
      />
      <p id={field.descriptionId} className="text-sm text-base-content/60">
        {helper}
      </p>
      {error ? (
        <Alert kind="error" id={field.errorId} className="py-2 text-sm">
          {error}
        </Alert>
      ) : null}
      <button type="submit" className="btn btn-primary" disabled={disabled || (hydrated && blank)}>
        {pending ? busyLabel : button}
      </button>
    </Form>
  );
}
