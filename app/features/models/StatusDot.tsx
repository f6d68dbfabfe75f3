import type { ModelStatus } from "./status";
import { STATUS_DOT_CLASS, STATUS_LABELS, STATUS_TOOLTIPS } from "./status";

/**
 * A model's status: a dot (its colour, and its shape for maintenance) with the status word beside it,
 * so it is never told by colour alone, and the status's tooltip on hover. The tooltip is a real
 * element hidden from screen readers (daisyUI's `data-tip` is generated content, which Chromium reads
 * into names): they hear the word, once. `className` styles the word (smaller in the chat's picker);
 * `tooltip={false}` where a hover tip has no room and no use (inside the picker's button and options,
 * which a keyboard never hovers).
 */
export function StatusDot({ status, className = "", tooltip = true }: { status: ModelStatus; className?: string; tooltip?: boolean }) {
  // Its colour is what it says: kept in forced-colours (high contrast) mode, which drops backgrounds.
  const dot = `inline-block size-2.5 shrink-0 forced-color-adjust-none ${STATUS_DOT_CLASS[status]}`;
  return (
    <span className={`inline-flex items-center gap-1.5 ${tooltip ? "tooltip tooltip-right" : ""}`}>
      {tooltip ? (
        // At most half the screen wide: it opens to the right of the word, and must not widen a phone's page.
        <span className="tooltip-content max-w-[min(20rem,50vw)]" aria-hidden>
          {STATUS_TOOLTIPS[status]}
        </span>
      ) : null}
      <span className={dot} aria-hidden data-testid="status-dot" />
      <span className={className || undefined}>{STATUS_LABELS[status]}</span>
    </span>
  );
}
