import type { ReactNode } from "react";

type AlertKind = "error" | "warning" | "success" | "info";

const TONE: Record<AlertKind, string> = { error: "alert-error", warning: "alert-warning", success: "alert-success", info: "alert-info" };

/**
 * A page-level message: errors and warnings are announced as alerts, successes and information as
 * polite status updates. The one way the console shows a message in a page.
 */
export function Alert({ kind, id, className = "", children }: { kind: AlertKind; id?: string; className?: string; children: ReactNode }) {
  const urgent = kind === "error" || kind === "warning";
  return (
    <div id={id} role={urgent ? "alert" : "status"} className={`alert ${TONE[kind]} ${className}`.trim()}>
      {children}
    </div>
  );
}
