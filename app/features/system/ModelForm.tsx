import { getFormProps, getInputProps, getSelectProps } from "@conform-to/react";
import { useForm } from "~/lib/use-form";
import type { SubmissionResult } from "@conform-to/react";
import { parseForm } from "~/lib/parse-form";
import { Form, Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { PageOrganizationField } from "~/features/auth/PageOrganizationField";
import { useIsPending } from "~/lib/use-is-pending";
import { KNOWN_PROVIDERS, MODEL_STATUS_OVERRIDES, modelForm } from "./model-form";
import type { z } from "zod";
import type { ModelField, ModelFormFields, ModelFormValues } from "./model-form";

interface ModelFormProps {
  /** The stored model's values (edit) or the empty form (add). */
  values: ModelFormValues;
  /** The server's answer to a refused save: field errors and what was typed (never the key). */
  lastResult: SubmissionResult<string[]> | undefined;
  /** Whether the stored model has an upstream key (edit mode). */
  hasApiKey: boolean;
  /** The stored model's version (edit mode): a save over someone else's newer one is refused (decision 0138). */
  version?: string;
}

/** Add or edit one model: a conform form posting `intent=save`, so it works before JavaScript loads. */
export function ModelForm({ values, lastResult, hasApiKey, version }: ModelFormProps) {
  const [form, fields] = useForm<ModelFormFields, z.output<typeof modelForm>>({
    id: "model-form",
    lastResult,
    defaultValue: { ...values, apiKey: "", clearApiKey: values.clearApiKey ? "on" : undefined, publishMetrics: values.publishMetrics ? "on" : undefined },
    onValidate: ({ formData }) => parseForm(formData, { schema: modelForm, asTyped: true }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const busy = useIsPending({ intent: "save" });
  const editing = values.mode === "edit";
  const errorOf = (name: ModelField) => fields[name].errors?.[0];
  const field = (name: ModelField, label: string, input: ReactNode, hint?: ReactNode) => (
    <div className="flex flex-col gap-1">
      <label className="text-sm font-medium" htmlFor={fields[name].id}>
        {label}
      </label>
      {input}
      {errorOf(name) ? (
        <span id={fields[name].errorId} className="text-sm text-error">
          {errorOf(name)}
        </span>
      ) : hint ? (
        <span className="text-xs text-base-content/60">{hint}</span>
      ) : null}
    </div>
  );
  const inputProps = (name: ModelField) => {
    const { key, ...props } = getInputProps(fields[name], { type: "text" });
    return { key, props: { ...props, className: `input w-full ${errorOf(name) ? "input-error" : ""}` } };
  };
  const input = (name: ModelField, extra: Record<string, unknown> = {}) => {
    const { key, props } = inputProps(name);
    return <input key={key} {...props} {...extra} />;
  };
  const { key: statusKey, ...statusProps } = getSelectProps(fields.status);
  return (
    <Form method="post" className="flex flex-col gap-4" aria-label={editing ? `Edit ${values.name}` : "Add a model"} {...getFormProps(form)}>
      <input type="hidden" name="intent" value="save" />
      <input type="hidden" name="mode" value={values.mode} />
      {editing && version ? <input type="hidden" name="version" value={version} /> : null}
      <PageOrganizationField />
      <div className="grid gap-4 md:grid-cols-2">
        {field(
          "name",
          "Name",
          input("name", {
            required: true,
            maxLength: 100,
            readOnly: editing,
            className: `input w-full font-mono ${editing ? "input-ghost" : ""} ${errorOf("name") ? "input-error" : ""}`,
          }),
          editing ? (
            "The name is the model's id in API calls; it cannot change."
          ) : (
            <>
              The id clients send as <code>model</code>, e.g. qwen3-32b.
            </>
          ),
        )}
        {field("displayName", "Display name", input("displayName", { required: true, maxLength: 200 }))}
        {field(
          "provider",
          "Provider",
          <>
            {input("provider", { required: true, maxLength: 100, list: "model-providers" })}
            <datalist id="model-providers">
              {KNOWN_PROVIDERS.map((p) => (
                <option key={p} value={p} />
              ))}
            </datalist>
          </>,
          "builtin answers in-process; anything else is an OpenAI-compatible upstream.",
        )}
        {field("contextSize", "Context size (tokens)", input("contextSize", { required: true, inputMode: "numeric" }))}
        {field(
          "defaultMaxTokens",
          "Default max tokens",
          input("defaultMaxTokens", { inputMode: "numeric", placeholder: "The context size" }),
          "The output a request without max_tokens may cost, at most the context size.",
        )}
        {field(
          "baseUrl",
          "Base URL",
          input("baseUrl", { type: "url", placeholder: "http://vllm.internal:8000/v1" }),
          "Required unless the provider is builtin.",
        )}
        {field("upstreamModel", "Upstream model", input("upstreamModel", { maxLength: 200 }), "The model name the upstream expects; blank uses the name.")}
        {field(
          "apiKey",
          "API key",
          input("apiKey", { type: "password", autoComplete: "off", placeholder: hasApiKey ? "Leave blank to keep the current key" : "None" }),
          hasApiKey ? "A key is set. It is never shown; type a new one to replace it." : "Write-only: it is never shown again.",
        )}
        {field(
          "status",
          "Status override",
          <select key={statusKey} {...statusProps} className={`select w-full ${errorOf("status") ? "select-error" : ""}`}>
            {MODEL_STATUS_OVERRIDES.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>,
          "Without an override the status is probed from the upstream.",
        )}
      </div>
      {editing && hasApiKey ? (
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" name={fields.clearApiKey.name} className="checkbox checkbox-sm" defaultChecked={fields.clearApiKey.initialValue === "on"} />{" "}
          Remove the current API key
        </label>
      ) : null}
      <fieldset className="rounded-box border border-base-300 p-4">
        <legend className="px-1 text-sm font-medium">Rate card</legend>
        <p className="mb-3 text-xs text-base-content/60">Prices in dollars per million tokens. Leave all three blank for a free model.</p>
        <div className="grid gap-4 md:grid-cols-3">
          {field("rateCardId", "Rate card id", input("rateCardId", { maxLength: 100 }))}
          {field("inputPerMillion", "Input price", input("inputPerMillion", { inputMode: "decimal" }))}
          {field("outputPerMillion", "Output price", input("outputPerMillion", { inputMode: "decimal" }))}
        </div>
      </fieldset>
      <fieldset className="rounded-box border border-base-300 p-4">
        <legend className="px-1 text-sm font-medium">Reliability</legend>
        <p className="mb-3 text-xs text-base-content/60">
          An alert shows on this page when the model&apos;s figures over the last 15 minutes, across all organizations, pass a threshold. Leave blank for no
          alert.
        </p>
        <div className="grid gap-4 md:grid-cols-2">
          {field("alertErrorRatePct", "Alert above error rate (%)", input("alertErrorRatePct", { inputMode: "numeric", placeholder: "No alert" }))}
          {field("alertTtftMs", "Alert above p50 time to first token (ms)", input("alertTtftMs", { inputMode: "numeric", placeholder: "No alert" }))}
        </div>
        <label className="mt-4 flex items-start gap-2 text-sm">
          <input
            type="checkbox"
            name={fields.publishMetrics.name}
            className="checkbox checkbox-sm mt-0.5"
            defaultChecked={fields.publishMetrics.initialValue === "on"}
          />
          <span>
            Publish platform-wide figures
            <span className="block text-xs text-base-content/60">Every organization sees this model&apos;s figures for all traffic, beside its own.</span>
          </span>
        </label>
      </fieldset>
      <div className="flex flex-wrap justify-end gap-2">
        {editing ? (
          <Link to="." className="btn btn-ghost" preventScrollReset>
            Cancel
          </Link>
        ) : null}
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? "Saving..." : editing ? "Save changes" : "Add model"}
        </button>
      </div>
    </Form>
  );
}
