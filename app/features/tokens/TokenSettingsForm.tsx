import { getFormProps } from "@conform-to/react";
import { useForm } from "~/lib/use-form";
import type { SubmissionResult } from "@conform-to/react";
import { parseForm } from "~/lib/parse-form";
import { Form, Link } from "@remix-run/react";
import { tokensHref } from "./token-page";
import { SlidersHorizontal } from "lucide-react";
import { Alert } from "~/components/Alert";
import { useArrivalKey, useFocusOnArrival } from "~/lib/use-arrival";
import { useIsPending } from "~/lib/use-is-pending";
import type { ApiToken } from "~/platform/tokens";
import { SpendSettingsFields } from "./SpendSettingsFields";
import { tokenSettingsForm } from "./token-forms";
import { PageOrganizationField } from "~/features/auth/PageOrganizationField";

interface TokenSettingsFormProps {
  token: ApiToken;
  /** The page of the list it was opened from, where it goes back to. */
  page: number;
  models: string[];
  lastResult: SubmissionResult<string[]> | undefined;
  /** Told when the form is left from inside (Save sent, Cancel), so the page can put focus back once it closes. */
  onLeave: (publicId: string) => void;
}

/** One token's budget, allow-list and request rate (admins), opened by `?edit=publicId`: works without JavaScript. */
export function TokenSettingsForm({ token, page, models, lastResult, onLeave }: TokenSettingsFormProps) {
  const arrival = useArrivalKey(lastResult);
  const [form, fields] = useForm({
    id: `token-settings-${token.publicId}`,
    lastResult,
    defaultValue: {
      publicId: token.publicId,
      budgetAmount: token.budget ? String(token.budget.amount) : "",
      budgetPeriod: token.budget?.period ?? "total",
      allowedModels: token.allowedModels ?? [],
      rateLimitRpm: token.rateLimitRpm === null ? "" : String(token.rateLimitRpm),
    },
    onValidate: ({ formData }) => parseForm(formData, { schema: tokenSettingsForm }),
  });
  const pending = useIsPending({ intent: "settings" });
  const settings = {
    budgetAmount: fields.budgetAmount,
    budgetPeriod: fields.budgetPeriod,
    allowedModels: fields.allowedModels,
    rateLimitRpm: fields.rateLimitRpm,
  };
  const titleId = `token-settings-title-${token.publicId}`;
  // Opened from a row far down the list, the form appears above it: it takes focus, which scrolls it
  // into view. After a refused save the error takes focus instead (decision 0091).
  const opened = useFocusOnArrival<HTMLElement>(lastResult === undefined);
  const formProps = getFormProps(form);
  return (
    <section className="card bg-base-100 shadow-sm" aria-labelledby={titleId} {...opened}>
      <div className="card-body">
        <h2 id={titleId} className="card-title">
          <SlidersHorizontal className="size-5" aria-hidden />
          Settings of {token.publicId}
        </h2>
        <Form
          method="post"
          action={tokensHref({ page, edit: token.publicId })}
          className="flex flex-col gap-4"
          {...formProps}
          onSubmit={(event) => {
            formProps.onSubmit(event);
            // Not a save that conform's checks stopped in place.
            if (!event.defaultPrevented) onLeave(token.publicId);
          }}
        >
          <input type="hidden" name="intent" value="settings" />
          <PageOrganizationField />
          <input type="hidden" name="publicId" value={token.publicId} />
          {/* What the save is made from: a save over another admin's newer one is refused, saying so (decision 0139). */}
          {token.version ? <input type="hidden" name="version" value={token.version} /> : null}
          <SpendSettingsFields fields={settings} models={models} />
          {form.errors?.[0] ? (
            <Alert key={arrival} kind="error" focus={lastResult !== undefined}>
              {form.errors[0]}
            </Alert>
          ) : null}
          <div className="flex gap-2">
            <button type="submit" className="btn btn-primary" disabled={pending}>
              {pending ? "Saving…" : "Save settings"}
            </button>
            <Link to={tokensHref({ page })} className="btn btn-ghost" onClick={() => onLeave(token.publicId)}>
              Cancel
            </Link>
          </div>
        </Form>
      </div>
    </section>
  );
}
