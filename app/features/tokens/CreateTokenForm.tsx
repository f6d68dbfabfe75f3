import { getFormProps, getSelectProps } from "@conform-to/react";
import { useForm } from "~/lib/use-form";
import type { SubmissionResult } from "@conform-to/react";
import { parseForm } from "~/lib/parse-form";
import { Form } from "@remix-run/react";
import { KeyRound } from "lucide-react";
import { Alert } from "~/components/Alert";
import { KeptMarkup } from "~/components/KeptMarkup";
import { useArrivalKey } from "~/lib/use-arrival";
import { useIsPending } from "~/lib/use-is-pending";
import { createTokenForm } from "./token-forms";
import { DEFAULT_EXPIRY, EXPIRY_CHOICES } from "./token-rules";
import { checkedNames, NameCheckboxes } from "./NameCheckboxes";
import { SpendSettingsFields } from "./SpendSettingsFields";
import { PageOrganizationField } from "~/features/auth/PageOrganizationField";

interface CreateTokenFormProps {
  scopes: string[];
  /** The models an allow-list may name. */
  models: string[];
  /** The server's answer to the last submission: its errors, and what the user chose. */
  lastResult: SubmissionResult<string[]> | undefined;
}

/**
 * Admins create a token: any scopes (every one checked to start with, none required, SPEC §5), an expiry
 * of 1, 7 or 30 days or never, and optionally a budget, an allow-list and a request rate (issue 11).
 */
export function CreateTokenForm(props: CreateTokenFormProps) {
  // In its first state the form is the same for every admin of the organization: rendered once, kept
  // (decision 0119).
  return (
    <KeptMarkup
      as="section"
      name="create-token"
      inputs={[props.scopes, props.models]}
      when={props.lastResult === undefined}
      className="card bg-base-100 shadow-sm"
      aria-labelledby="create-token-title"
    >
      <CreateTokenFields {...props} />
    </KeptMarkup>
  );
}

function CreateTokenFields({ scopes, models, lastResult }: CreateTokenFormProps) {
  const [form, fields] = useForm({
    id: "create-token",
    lastResult,
    // A token without scopes can call nothing: all are checked to start with (issue 11).
    defaultValue: { scopes, expiry: DEFAULT_EXPIRY, budgetPeriod: "total", allowedModels: [] },
    onValidate: ({ formData }) => parseForm(formData, { schema: createTokenForm }),
  });
  const pending = useIsPending({ intent: "create" });
  const arrival = useArrivalKey(lastResult);
  const chosen = checkedNames(fields.scopes.initialValue);
  const error = form.errors?.[0] ?? fields.expiry.errors?.[0] ?? fields.scopes.errors?.[0] ?? null;
  const settings = {
    budgetAmount: fields.budgetAmount,
    budgetPeriod: fields.budgetPeriod,
    allowedModels: fields.allowedModels,
    rateLimitRpm: fields.rateLimitRpm,
  };
  const { key: expiryKey, ...expiryProps } = getSelectProps(fields.expiry);
  return (
    <div className="card-body">
      <h2 id="create-token-title" className="card-title">
        <KeyRound className="size-5" aria-hidden />
        Create API token
      </h2>
      <Form method="post" className="flex flex-col gap-4" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="create" />
        <PageOrganizationField />
        <fieldset className="fieldset">
          <legend className="fieldset-legend">Scopes</legend>
          <NameCheckboxes name={fields.scopes.name} names={scopes} checked={chosen} groupKey={fields.scopes.key} />
          <p className="label">Choose what the token may call. None is required.</p>
        </fieldset>
        <fieldset className="fieldset max-w-xs">
          <label className="fieldset-legend" htmlFor={fields.expiry.id}>
            Expiry
          </label>
          <select key={expiryKey} {...expiryProps} className="select">
            {EXPIRY_CHOICES.map((c) => (
              <option key={c.value} value={c.value}>
                {c.label}
              </option>
            ))}
          </select>
        </fieldset>
        <SpendSettingsFields fields={settings} models={models} />
        {error ? (
          <Alert key={arrival} kind="error" focus={lastResult !== undefined}>
            {error}
          </Alert>
        ) : null}
        <div>
          <button type="submit" className="btn btn-primary" disabled={pending}>
            {pending ? "Creating..." : "Create token"}
          </button>
        </div>
      </Form>
    </div>
  );
}
