import type { ModelStatus } from "./status";
import { STATUS_DOT_CLASS, STATUS_LABELS, STATUS_TOOLTIPS } from "./status";

/**
 * A model's status: a dot (its colour, and its shape for maintenance) with the status word beside it,
 * so it is never told by colour alone, and the status's tooltip on hover. The tooltip is a real
 * element hidden from screen readers (daisyUI's `data-tip` is generated content, which Chromium reads
 * into names): they hear the word, once. `className` styles the word (smaller in the chat's picker).
 */
export function StatusDot({ status, className = "" }: { status: ModelStatus; className?: string }) {
  // Its colour is what it says: kept in forced-colours (high contrast) mode, which drops backgrounds.
  const dot = `inline-block size-2.5 shrink-0 forced-color-adjust-none ${STATUS_DOT_CLASS[status]}`;
  return (
    <span className="tooltip tooltip-right inline-flex items-center gap-1.5">
      <span className="tooltip-content" aria-hidden>
        {STATUS_TOOLTIPS[status]}
      </span>
      <span className={dot} aria-hidden data-testid="status-dot" />
      <span className={className || undefined}>{STATUS_LABELS[status]}</span>
    </span>
  );
}
