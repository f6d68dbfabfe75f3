import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useState } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import { z } from "zod";
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

const createForm = z.object({ intent: z.literal("create"), name: z.string().trim().min(1, "Enter a name for your organization").max(100, "Use at most 100 characters") });
const joinForm = z.object({ intent: z.literal("join"), code: z.string().trim().min(1, "Enter your invite code").max(100, "That invite code is too long") });
const logoutForm = z.object({ intent: z.literal("logout") });
const welcomeForm = z.discriminatedUnion("intent", [createForm, joinForm, logoutForm]);

type ActionResult = { intent: "create" | "join"; error: string; value: string } | { intent: "logout"; logoutFailed: true };

export async function action({ request, context }: ActionFunctionArgs) {
  const api = platformClient(request, context);
  const fields = Object.fromEntries(await request.formData());
  const parsed = welcomeForm.safeParse(fields);
  if (!parsed.success) {
    const intent = fields.intent === "join" ? "join" : "create";
    const value = String(fields[intent === "join" ? "code" : "name"] ?? "");
    return data<ActionResult>({ intent, error: parsed.error.issues[0]?.message ?? "Invalid input", value }, 400);
  }
  const form = parsed.data;
  if (form.intent === "logout") {
    const result = await api.logout();
    if (!result.ok) return data<ActionResult>({ intent: "logout", logoutFailed: true }, 502);
    throw redirect("/login", { headers: api.headers });
  }
  const result = form.intent === "create" ? await api.createOrganization(form.name) : await api.joinOrganization(form.code);
  if (!result.ok) {
    const value = form.intent === "create" ? form.name : form.code;
    return data<ActionResult>({ intent: form.intent, error: result.error, value }, result.status >= 500 ? 502 : 400);
  }
  // SPEC §2: on success, switch to that organization and go to /team.
  await api.switchOrganization(result.data.id);
  throw redirect("/team", { headers: api.headers });
}

export default function Welcome() {
  const { user, orgSignupEnabled } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const pendingIntent = navigation.state !== "idle" ? navigation.formData?.get("intent") : null;
  const busy = pendingIntent != null;

  if (result && "logoutFailed" in result) {
    return (
      <main role="alert" className="grid min-h-screen place-items-center p-6 text-xl font-semibold text-error">
        Error: Failed to logout
      </main>
    );
  }
  const errorFor = (intent: "create" | "join") => (result && "error" in result && result.intent === intent ? result.error : null);
  const valueFor = (intent: "create" | "join") => (result && "value" in result && result.intent === intent ? result.value : "");

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
              pending={pendingIntent === "create"}
              disabled={busy}
              hydrated={hydrated}
              error={errorFor("create")}
              initialValue={valueFor("create")}
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
            pending={pendingIntent === "join"}
            disabled={busy}
            hydrated={hydrated}
            error={errorFor("join")}
            initialValue={valueFor("join")}
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
  intent: "create" | "join";
  field: "name" | "code";
  label: string;
  placeholder: string;
  helper: string;
  button: string;
  busyLabel: string;
  pending: boolean;
  disabled: boolean;
  hydrated: boolean;
  error: string | null;
  initialValue: string;
}

/** One onboarding form: trimmed value, submit disabled while blank (after hydration) or busy (SPEC §5). */
function OrgForm({ intent, field, label, placeholder, helper, button, busyLabel, pending, disabled, hydrated, error, initialValue }: OrgFormProps) {
  const [value, setValue] = useState(initialValue);
  const id = `${intent}-${field}`;
  const blank = value.trim() === "";
  return (
    <Form method="post" className="flex flex-col gap-2" aria-labelledby={`${id}-label`}>
      <input type="hidden" name="intent" value={intent} />
      <label id={`${id}-label`} htmlFor={id} className="font-semibold">
        {label}
      </label>
      <input
        id={id}
        name={field}
        className={`input w-full ${error ? "input-error" : ""}`}
        placeholder={placeholder}
        required
        maxLength={100}
        autoComplete="off"
        value={value}
        onChange={(e) => setValue(e.target.value)}
        aria-describedby={`${id}-help${error ? ` ${id}-error` : ""}`}
        aria-invalid={error ? true : undefined}
      />
      <p id={`${id}-help`} className="text-sm text-base-content/60">
        {helper}
      </p>
      {error ? (
        <div id={`${id}-error`} role="alert" className="alert alert-error py-2 text-sm">
          {error}
        </div>
      ) : null}
      <button type="submit" className="btn btn-primary" disabled={disabled || (hydrated && blank)}>
        {pending ? busyLabel : button}
      </button>
    </Form>
  );
}
