import { getFormProps, getInputProps, getSelectProps } from "@conform-to/react";
import { useForm } from "~/lib/use-form";
import type { SubmissionResult } from "@conform-to/react";
import { parseForm } from "~/lib/parse-form";
import { Form } from "@remix-run/react";
import { Ticket } from "lucide-react";
import type { KeyboardEvent } from "react";
import { Alert } from "~/components/Alert";
import { CopyButton } from "~/components/CopyButton";
import { KeptMarkup } from "~/components/KeptMarkup";
import { useFocusOnArrival } from "~/lib/use-arrival";
import { useIsPending } from "~/lib/use-is-pending";
import { INVITE_EXPIRY_CHOICES, inviteForm } from "./invite-forms";
import type { InviteKind } from "./member-rules";
import { INVITE_KINDS } from "./member-rules";
import { PageOrganizationField } from "~/features/auth/PageOrganizationField";

interface InvitePanelProps {
  /** The code just made, shown with a copy button (it is in the list below too). */
  invite: { code: string; kind: InviteKind } | null;
  lastResult: SubmissionResult<string[]> | undefined;
}

/** A maximum only means something for a multi-use code: Enter in its field asks for one (the form's first button is Single-use). */
function submitMultiUseOnEnter(event: KeyboardEvent<HTMLInputElement>) {
  const form = event.currentTarget.form;
  const multi = form?.querySelector<HTMLButtonElement>('button[name="kind"][value="multi-use"]');
  if (event.key !== "Enter" || !form || !multi || multi.disabled) return;
  event.preventDefault();
  form.requestSubmit(multi);
}

/**
 * Admins generate single-use or multi-use invite codes, with an optional expiry and (multi-use) an
 * optional maximum number of uses (issue 14). The kind is the button pressed, so one form serves both.
 */
export function InvitePanel(props: InvitePanelProps) {
  // Before any submission the panel is the same for every admin of the organization: rendered once,
  // kept (decision 0119).
  return (
    <KeptMarkup
      as="section"
      name="invite"
      inputs={null}
      when={props.invite === null && props.lastResult === undefined}
      className="card bg-base-100 shadow-sm"
      aria-labelledby="invite-title"
    >
      <InviteFields {...props} />
    </KeptMarkup>
  );
}

function InviteFields({ invite, lastResult }: InvitePanelProps) {
  const [form, fields] = useForm({
    id: "invite",
    lastResult,
    defaultValue: { expiry: "never" },
    onValidate: ({ formData }) => parseForm(formData, { schema: inviteForm }),
  });
  const single = useIsPending({ intent: "invite", fields: { kind: "single-use" } });
  const multi = useIsPending({ intent: "invite", fields: { kind: "multi-use" } });
  const pending = single ? "single-use" : multi ? "multi-use" : null;
  // The new code answers the submission: it takes focus (decision 0091).
  const codeFocus = useFocusOnArrival<HTMLDivElement>(invite != null, invite?.code);
  const { key: expiryKey, ...expiryProps } = getSelectProps(fields.expiry);
  const { key: maxKey, ...maxProps } = getInputProps(fields.maxUses, { type: "number" });
  const maxError = fields.maxUses.errors?.[0];
  const formError = form.errors?.[0] ?? fields.expiry.errors?.[0] ?? fields.kind.errors?.[0];
  return (
    <div className="card-body gap-4">
      <div>
        <h2 id="invite-title" className="card-title">
          <Ticket className="size-5" aria-hidden />
          Invite people
        </h2>
        <p className="text-sm text-base-content/70">
          A single-use code lets one person join; a multi-use code can be shared with a whole team. They enter it on the welcome screen after signing in.
        </p>
      </div>
      <Form method="post" className="flex flex-col gap-3" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="invite" />
        <PageOrganizationField />
        <div className="flex flex-wrap items-start gap-4">
          <fieldset className="fieldset w-40">
            <label className="fieldset-legend" htmlFor={fields.expiry.id}>
              Expires after
            </label>
            <select key={expiryKey} {...expiryProps} className="select select-sm">
              {INVITE_EXPIRY_CHOICES.map((c) => (
                <option key={c.value} value={c.value}>
                  {c.label}
                </option>
              ))}
            </select>
          </fieldset>
          <fieldset className="fieldset w-56">
            <label className="fieldset-legend" htmlFor={fields.maxUses.id}>
              Maximum uses
            </label>
            <input
              key={maxKey}
              {...maxProps}
              min={1}
              max={1000}
              step={1}
              placeholder="No limit"
              className={`input input-sm ${maxError ? "input-error" : ""}`}
              aria-describedby={`${fields.maxUses.descriptionId}${maxError ? ` ${fields.maxUses.errorId}` : ""}`}
              aria-invalid={maxError ? true : undefined}
              onKeyDown={submitMultiUseOnEnter}
            />
            <p id={fields.maxUses.descriptionId} className="label whitespace-normal">
              Multi-use codes only; empty for no limit.
            </p>
            {maxError ? (
              <p id={fields.maxUses.errorId} className="text-sm text-error">
                {maxError}
              </p>
            ) : null}
          </fieldset>
        </div>
        {formError ? <Alert kind="error">{formError}</Alert> : null}
        <div className="flex flex-wrap gap-2">
          {INVITE_KINDS.map((kind) => (
            <button key={kind.value} type="submit" name="kind" value={kind.value} className="btn btn-primary btn-sm" disabled={pending != null}>
              {pending === kind.value ? "Generating..." : kind.label}
            </button>
          ))}
        </div>
      </Form>
      {invite ? (
        <div className="flex flex-wrap items-center gap-3 rounded-box bg-base-200 p-3" role="status" aria-label="Invite code" {...codeFocus}>
          <span className="badge badge-outline">{invite.kind}</span>
          <code className="font-mono text-lg tracking-widest" data-testid="invite-code">
            {invite.code}
          </code>
          <CopyButton text={invite.code} label="Copy code" className="btn btn-sm btn-ghost" />
        </div>
      ) : null}
    </div>
  );
}
