import { Form } from "@remix-run/react";
import { RefreshCw } from "lucide-react";
import { useEffect, useRef } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import { ROLL_GRACE_CHOICES, ROLL_GRACE_LABELS } from "@contract/token-rotation";
import { useIsPending } from "~/lib/use-is-pending";

/**
 * "Roll" on a token (issue 16): a step the page renders (a `<details>`, so it opens without
 * JavaScript) asking how long the old secret keeps working; the new secret is shown once after.
 */
export function RollTokenAction({ publicId }: { publicId: string }) {
  const hydrated = useHydrated();
  const busy = useIsPending({ intent: "roll", fields: { publicId } });
  const details = useRef<HTMLDetailsElement>(null);
  const wasBusy = useRef(false);
  useEffect(() => {
    if (wasBusy.current && !busy && details.current) details.current.open = false;
    wasBusy.current = busy;
  }, [busy]);
  const selectId = `roll-grace-${publicId}`;
  return (
    <details ref={details} className="dropdown dropdown-end">
      <summary role="button" className="btn btn-ghost btn-sm" aria-label={`Roll ${publicId}`}>
        <RefreshCw className="size-4" aria-hidden /> Roll
      </summary>
      <div
        className="dropdown-content z-30 mt-2 w-80 rounded-box border border-base-300 bg-base-100 p-4 text-left shadow-lg"
        role="dialog"
        aria-label={`Roll ${publicId}`}
      >
        <p className="mb-3 text-sm font-normal whitespace-normal">
          Roll {publicId}: it gets a new secret, shown once, and keeps its settings and usage. Clients using the old secret keep working for the time you
          choose.
        </p>
        <Form method="post" className="flex flex-col gap-3">
          <input type="hidden" name="intent" value="roll" />
          <input type="hidden" name="publicId" value={publicId} />
          <label htmlFor={selectId} className="text-sm">
            Old secret keeps working for
          </label>
          <select id={selectId} name="grace" className="select select-sm w-full" defaultValue="24h">
            {ROLL_GRACE_CHOICES.map((grace) => (
              <option key={grace} value={grace}>
                {ROLL_GRACE_LABELS[grace]}
              </option>
            ))}
          </select>
          <div className="flex justify-end gap-2">
            {hydrated ? (
              <button type="button" className="btn btn-ghost btn-sm" onClick={() => details.current?.removeAttribute("open")} disabled={busy}>
                Cancel
              </button>
            ) : null}
            <button type="submit" className="btn btn-sm btn-primary" disabled={busy}>
              {busy ? "Rolling..." : "Roll token"}
            </button>
          </div>
        </Form>
      </div>
    </details>
  );
}
