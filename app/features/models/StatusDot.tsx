import type { ModelStatus } from "./status";
import { STATUS_DOT_CLASS, STATUS_TOOLTIPS } from "./status";

/** A coloured dot with its status tooltip (hover and focus), and the same text for screen readers. */
export function StatusDot({ status }: { status: ModelStatus }) {
  return (
    <span className="tooltip tooltip-right inline-flex items-center" data-tip={STATUS_TOOLTIPS[status]}>
      {/* Its colour is what it says: kept in forced-colours (high contrast) mode, which drops backgrounds. */}
      <span className={`inline-block size-2.5 rounded-full forced-color-adjust-none ${STATUS_DOT_CLASS[status]}`} aria-hidden />
      <span className="sr-only">{STATUS_TOOLTIPS[status]}</span>
    </span>
  );
}
