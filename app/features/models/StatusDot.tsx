import type { ModelStatus } from "./status";
import { STATUS_DOT_CLASS, STATUS_TOOLTIPS } from "./status";

/**
 * A coloured dot with its status tooltip, and the same text for screen readers. `focusable` where the
 * dot stands alone (no status word beside it, not inside a control): a keyboard user tabs to it and
 * sees the tooltip as a mouse user does on hover.
 */
export function StatusDot({ status, focusable = false }: { status: ModelStatus; focusable?: boolean }) {
  const text = STATUS_TOOLTIPS[status];
  // Its colour is what it says: kept in forced-colours (high contrast) mode, which drops backgrounds.
  const dot = `inline-block size-2.5 rounded-full forced-color-adjust-none ${STATUS_DOT_CLASS[status]}`;
  return (
    <span className="tooltip tooltip-right inline-flex items-center" data-tip={text}>
      {focusable ? (
        <span
          role="img"
          aria-label={text}
          tabIndex={0}
          className={`${dot} focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-base-content`}
        />
      ) : (
        <>
          <span className={dot} aria-hidden />
          <span className="sr-only">{text}</span>
        </>
      )}
    </span>
  );
}
