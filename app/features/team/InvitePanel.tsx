import { Form } from "@remix-run/react";
import { Ticket } from "lucide-react";
import { CopyButton } from "~/components/CopyButton";
import { useFocusOnArrival } from "~/lib/use-arrival";
import { useIsPending } from "~/lib/use-is-pending";
import type { InviteKind } from "./member-rules";
import { INVITE_KINDS } from "./member-rules";

/** Admins generate single-use or multi-use invite codes; the newest code is shown with a copy button. */
export function InvitePanel({ invite }: { invite: { code: string; kind: InviteKind } | null }) {
  const single = useIsPending({ intent: "invite", fields: { kind: "single-use" } });
  const multi = useIsPending({ intent: "invite", fields: { kind: "multi-use" } });
  const pending = single ? "single-use" : multi ? "multi-use" : null;
  // The new code answers the submission: it takes focus (decision 0091).
  const codeFocus = useFocusOnArrival<HTMLDivElement>(invite != null, invite?.code);
  return (
    <section className="card bg-base-100 shadow-sm" aria-labelledby="invite-title">
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
        <Form method="post" className="flex flex-wrap gap-2">
          <input type="hidden" name="intent" value="invite" />
          {INVITE_KINDS.map((kind) => (
            <button key={kind.value} type="submit" name="kind" value={kind.value} className="btn btn-primary btn-sm" disabled={pending != null}>
              {pending === kind.value ? "Generating..." : kind.label}
            </button>
          ))}
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
    </section>
  );
}
