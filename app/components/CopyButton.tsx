import type { LucideIcon } from "lucide-react";
import { Check, Copy, X } from "lucide-react";
import type { CopyStatus } from "~/lib/use-copy";
import { useCopy } from "~/lib/use-copy";

const icons: Record<CopyStatus, LucideIcon> = { idle: Copy, copied: Check, failed: X };

/**
 * A copy button that reads 'Copied!' for 2 seconds after copying, or 'Copy failed' when the browser
 * refused; hidden on a page without scripts, where it could not copy. In a table's row, `subject`
 * (visually hidden) says what it copies, so its name is not one of many "Copy".
 */
export function CopyButton({
  text,
  label = "Copy",
  subject,
  className = "btn btn-sm",
}: {
  text: string;
  label?: string;
  subject?: string;
  className?: string;
}) {
  const { status, copy } = useCopy();
  const Icon = icons[status];
  return (
    <button type="button" className={`${className} hide-without-script`} onClick={() => void copy(text)} aria-live="polite">
      <Icon className="size-4" aria-hidden />
      {status === "copied" ? "Copied!" : status === "failed" ? "Copy failed" : label}
      {subject ? <span className="sr-only"> {subject}</span> : null}
    </button>
  );
}
