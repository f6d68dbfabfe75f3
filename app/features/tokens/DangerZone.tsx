import { RotateCcw } from "lucide-react";
import { ConfirmAction } from "~/components/ConfirmAction";

/** Admins reset the primary organization token (SPEC §2, §7): the old secret stops working at once. */
export function DangerZone({ version }: { version: string | undefined }) {
  return (
    <section className="card border border-error/40 bg-base-100 shadow-sm" aria-labelledby="danger-title">
      <div className="card-body flex-row flex-wrap items-center justify-between gap-4">
        <div>
          <h2 id="danger-title" className="card-title text-error">
            Danger zone
          </h2>
          <p className="text-sm text-base-content/70">
            Reset organization token: the primary token gets a new secret, shown once. The old one is refused immediately.
          </p>
        </div>
        <ConfirmAction
          label={
            <>
              <RotateCcw className="size-4" aria-hidden /> Reset organization token
            </>
          }
          question="Reset the organization token? The current token stops working immediately. This can't be undone."
          confirmLabel="Reset token"
          busyLabel="Resetting..."
          intent="reset"
          fields={version ? { version } : undefined}
        />
      </div>
    </section>
  );
}
