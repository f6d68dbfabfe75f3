import type { ReactNode } from "react";

/** A page-level message: errors are announced as alerts, successes as polite status updates. */
export function Alert({ kind, children }: { kind: "error" | "success"; children: ReactNode }) {
  return kind === "error" ? (
    <div role="alert" className="alert alert-error">
      {children}
    </div>
  ) : (
    <div role="status" className="alert alert-success">
      {children}
    </div>
  );
}
