import { Form } from "@remix-run/react";
import { RefreshCw } from "lucide-react";
import { ROLL_GRACE_CHOICES, ROLL_GRACE_LABELS } from "@contract/token-rotation";
import { Popover, PopoverClose } from "~/components/Popover";
import { useIsPending } from "~/lib/use-is-pending";
import { PageOrganizationField } from "~/features/auth/PageOrganizationField";

/**
 * "Roll" on a token (issue 16): a step the page renders (a popover, so it opens without
 * JavaScript) asking how long the old secret keeps working; the new secret is shown once after.
 */
export function RollTokenAction({ publicId, version }: { publicId: string; version: string | undefined }) {
  const busy = useIsPending({ intent: "roll", fields: { publicId } });
  const selectId = `roll-grace-${publicId}`;
  return (
    <Popover
      trigger={
        <>
          <RefreshCw className="size-4" aria-hidden /> Roll
        </>
      }
      triggerClassName="btn btn-ghost btn-sm"
      triggerLabel={`Roll ${publicId}`}
      role="dialog"
      label={`Roll ${publicId}`}
      busy={busy}
      className="mt-2 w-80 rounded-box border border-base-300 bg-base-100 p-4 text-left shadow-lg"
    >
      <p className="mb-3 text-sm font-normal whitespace-normal">
        Roll {publicId}: it gets a new secret, shown once, and keeps its settings and usage. Clients using the old secret keep working for the time you choose.
      </p>
      <Form method="post" className="flex flex-col gap-3">
        <input type="hidden" name="intent" value="roll" />
        <PageOrganizationField />
        <input type="hidden" name="publicId" value={publicId} />
        {/* A second roll at once (a double submit, two admins) is refused: it would end the grace of the secret in use. */}
        {version ? <input type="hidden" name="version" value={version} /> : null}
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
          <PopoverClose className="btn btn-ghost btn-sm" disabled={busy}>
            Cancel
          </PopoverClose>
          <button type="submit" className="btn btn-sm btn-primary" disabled={busy}>
            {busy ? "Rolling..." : "Roll token"}
          </button>
        </div>
      </Form>
    </Popover>
  );
}
