import { Form, Link, useNavigation } from "@remix-run/react";
import type { ReactNode } from "react";
import { KNOWN_PROVIDERS, MODEL_STATUS_OVERRIDES } from "./model-form";
import type { ModelField, ModelFieldErrors, ModelFormValues } from "./model-form";

interface ModelFormProps {
  values: ModelFormValues;
  errors: ModelFieldErrors;
  /** Whether the stored model has an upstream key (edit mode). */
  hasApiKey: boolean;
}

/** Add or edit one model: a plain form posting `intent=save`, so it works before JavaScript loads. */
export function ModelForm({ values, errors, hasApiKey }: ModelFormProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === "save";
  const editing = values.mode === "edit";
  const field = (name: ModelField, label: string, input: ReactNode, hint?: string) => (
    <div className="flex flex-col gap-1">
      <label className="text-sm font-medium" htmlFor={`model-${name}`}>
        {label}
      </label>
      {input}
      {errors[name] ? (
        <span id={`model-${name}-error`} className="text-sm text-error">
          {errors[name]}
        </span>
      ) : hint ? (
        <span className="text-xs text-base-content/60">{hint}</span>
      ) : null}
    </div>
  );
  const inputProps = (name: ModelField) => ({
    id: `model-${name}`,
    name,
    defaultValue: values[name],
    "aria-invalid": errors[name] ? true : undefined,
    "aria-describedby": errors[name] ? `model-${name}-error` : undefined,
    className: `input w-full ${errors[name] ? "input-error" : ""}`,
  });
  return (
    <Form method="post" className="flex flex-col gap-4" aria-label={editing ? `Edit ${values.name}` : "Add a model"}>
      <input type="hidden" name="intent" value="save" />
      <input type="hidden" name="mode" value={values.mode} />
      <div className="grid gap-4 md:grid-cols-2">
        {field(
          "name",
          "Name",
          <input {...inputProps("name")} required maxLength={100} readOnly={editing} className={`input w-full font-mono ${editing ? "input-ghost" : ""} ${errors.name ? "input-error" : ""}`} />,
          editing ? "The name is the model's id in API calls; it cannot change." : "The id clients send as `model`, e.g. qwen3-32b.",
        )}
        {field("displayName", "Display name", <input {...inputProps("displayName")} required maxLength={200} />)}
        {field(
          "provider",
          "Provider",
          <>
            <input {...inputProps("provider")} required maxLength={100} list="model-providers" />
            <datalist id="model-providers">
              {KNOWN_PROVIDERS.map((p) => (
                <option key={p} value={p} />
              ))}
            </datalist>
          </>,
          "builtin answers in-process; anything else is an OpenAI-compatible upstream.",
        )}
        {field("contextSize", "Context size (tokens)", <input {...inputProps("contextSize")} required inputMode="numeric" />)}
        {field("baseUrl", "Base URL", <input {...inputProps("baseUrl")} type="url" placeholder="http://vllm.internal:8000/v1" />, "Required unless the provider is builtin.")}
        {field("upstreamModel", "Upstream model", <input {...inputProps("upstreamModel")} maxLength={200} />, "The model name the upstream expects; blank uses the name.")}
        {field(
          "apiKey",
          "API key",
          <input {...inputProps("apiKey")} defaultValue="" type="password" autoComplete="off" placeholder={hasApiKey ? "Leave blank to keep the current key" : "None"} />,
          hasApiKey ? "A key is set. It is never shown; type a new one to replace it." : "Write-only: it is never shown again.",
        )}
        {field(
          "status",
          "Status override",
          <select {...inputProps("status")} className={`select w-full ${errors.status ? "select-error" : ""}`}>
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
          <input type="checkbox" name="clearApiKey" className="checkbox checkbox-sm" defaultChecked={values.clearApiKey} /> Remove the current API key
        </label>
      ) : null}
      <fieldset className="rounded-box border border-base-300 p-4">
        <legend className="px-1 text-sm font-medium">Rate card</legend>
        <p className="mb-3 text-xs text-base-content/60">Prices in dollars per million tokens. Leave all three blank for a free model.</p>
        <div className="grid gap-4 md:grid-cols-3">
          {field("rateCardId", "Rate card id", <input {...inputProps("rateCardId")} maxLength={100} />)}
          {field("inputPerMillion", "Input price", <input {...inputProps("inputPerMillion")} inputMode="decimal" />)}
          {field("outputPerMillion", "Output price", <input {...inputProps("outputPerMillion")} inputMode="decimal" />)}
        </div>
      </fieldset>
      <div className="flex justify-end gap-2">
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
