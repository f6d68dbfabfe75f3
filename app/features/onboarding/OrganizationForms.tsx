import { getFormProps, getInputProps } from "@conform-to/react";
import { useForm } from "~/lib/use-form";
import type { SubmissionResult } from "@conform-to/react";
import { getZodConstraint } from "@conform-to/zod";
import { parseForm } from "~/lib/parse-form";
import { Form } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import { Alert } from "~/components/Alert";
import { useArrivalKey } from "~/lib/use-arrival";
import { useIsPending } from "~/lib/use-is-pending";
import type { OnboardingIntent } from "./forms";
import { onboardingSchema } from "./forms";

interface OrganizationFormsProps {
  /** SPEC §2: without organization signup, only the invite-code form shows, with its sentence. */
  orgSignupEnabled: boolean;
  /** The last answer of the action, by form. */
  resultFor: (intent: OnboardingIntent) => SubmissionResult<string[]> | undefined;
}

/**
 * Create an organization or join one with a code (SPEC §2 onboarding): on /welcome for a user without an
 * organization, and on /organizations for one who has some (issue 14). One component, so both say the same.
 */
export function OrganizationForms({ orgSignupEnabled, resultFor }: OrganizationFormsProps) {
  // Any submission (the other form, Sign Out) disables both, as before (SPEC §5).
  const busy = useIsPending();
  // A create sent from a page made before the operator turned sign-up off: its form is gone, its refusal is not.
  const createRefused = orgSignupEnabled
    ? undefined
    : Object.values(resultFor("create")?.error ?? {})
        .flat()
        .find(Boolean);
  return (
    <>
      {createRefused ? (
        <Alert kind="error" focus>
          {createRefused}
        </Alert>
      ) : null}
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
    </>
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
  const schema = onboardingSchema(intent);
  const [form, fields] = useForm({
    id: intent,
    lastResult,
    constraint: getZodConstraint(schema),
    onValidate: ({ formData }) => parseForm(formData, { schema }),
    shouldRevalidate: "onInput",
  });
  const hydrated = useHydrated();
  const pending = useIsPending({ intent });
  const field = fields[name];
  // The platform's refusal (an unknown code) shows where a field error would.
  const error = field.errors?.[0] ?? form.errors?.[0] ?? null;
  const blank = String(field.value ?? "").trim() === "";
  const { key, ...inputProps } = getInputProps(field, { type: "text" });
  // A refusal (an unknown code, a name taken) puts the keyboard back in the field to correct, rather
  // than on the page's body where the disabled button left it (audit L).
  const input = useRef<HTMLInputElement>(null);
  const arrival = useArrivalKey(lastResult);
  useEffect(() => {
    if (arrival > 0 && lastResult?.status === "error") input.current?.focus();
  }, [arrival, lastResult]);
  return (
    <Form method="post" className="flex flex-col gap-2" aria-labelledby={`${field.id}-label`} {...getFormProps(form)}>
      <input type="hidden" name="intent" value={intent} />
      <label id={`${field.id}-label`} htmlFor={field.id} className="font-semibold">
        {label}
      </label>
      <input
        key={key}
        ref={input}
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
