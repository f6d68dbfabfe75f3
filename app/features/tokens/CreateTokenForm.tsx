import { Form, useNavigation } from "@remix-run/react";
import { KeyRound } from "lucide-react";
import type { ExpiryChoice } from "./token-rules";
import { DEFAULT_EXPIRY, EXPIRY_CHOICES } from "./token-rules";

interface CreateTokenFormProps {
  scopes: string[];
  /** What the user chose, kept after a refusal. */
  values: { scopes: string[]; expiry: ExpiryChoice } | null;
  error: string | null;
}

/** Admins create a token: any scopes (none required, SPEC §5) and an expiry of 1, 7 or 30 days or never. */
export function CreateTokenForm({ scopes, values, error }: CreateTokenFormProps) {
  const navigation = useNavigation();
  const pending = navigation.state !== "idle" && navigation.formData?.get("intent") === "create";
  const chosen = new Set(values?.scopes ?? []);
  return (
    <section className="card bg-base-100 shadow-sm" aria-labelledby="create-token-title">
      <div className="card-body">
        <h2 id="create-token-title" className="card-title">
          <KeyRound className="size-5" aria-hidden />
          Create API token
        </h2>
        {/* The key resets the fields to what the server kept after each answer. */}
        <Form method="post" className="flex flex-col gap-4" key={JSON.stringify(values)}>
          <input type="hidden" name="intent" value="create" />
          <fieldset className="fieldset">
            <legend className="fieldset-legend">Scopes</legend>
            <div className="flex flex-wrap gap-x-6 gap-y-2">
              {scopes.map((scope) => (
                <label key={scope} className="label cursor-pointer gap-2 text-base-content">
                  <input type="checkbox" name="scopes" value={scope} className="checkbox checkbox-sm" defaultChecked={chosen.has(scope)} />
                  <span className="font-mono text-sm">{scope}</span>
                </label>
              ))}
            </div>
            <p className="label">Choose what the token may call. None is required.</p>
          </fieldset>
          <fieldset className="fieldset max-w-xs">
            <label className="fieldset-legend" htmlFor="token-expiry">
              Expiry
            </label>
            <select id="token-expiry" name="expiry" className="select" defaultValue={values?.expiry ?? DEFAULT_EXPIRY}>
              {EXPIRY_CHOICES.map((c) => (
                <option key={c.value} value={c.value}>
                  {c.label}
                </option>
              ))}
            </select>
          </fieldset>
          {error ? (
            <div role="alert" className="alert alert-error">
              {error}
            </div>
          ) : null}
          <div>
            <button type="submit" className="btn btn-primary" disabled={pending}>
              {pending ? "Creating..." : "Create token"}
            </button>
          </div>
        </Form>
      </div>
    </section>
  );
}
