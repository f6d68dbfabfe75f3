import type { ReactNode } from "react";
import { useFocusOnArrival } from "~/lib/use-arrival";

type AlertKind = "error" | "warning" | "success" | "info";

const TONE: Record<AlertKind, string> = { error: "alert-error", warning: "alert-warning", success: "alert-success", info: "alert-info" };

/**
 * A page-level message: errors and warnings are announced as alerts, successes and information as
 * polite status updates. The one way the console shows a message in a page.
 *
 * `focus`: the message answers a submission, so it takes focus when it appears (issue 14, decision 0091):
 * a keyboard or screen-reader user lands on the result instead of the page body, with or without
 * JavaScript. Give it a changing `key` (`useArrivalKey`) to take focus again when the same text comes back.
 *
 * `live={false}`: no role of its own, for a message that changes as the person types, which a polite
 * region around it announces once they pause (an alert would interrupt each keystroke's echo).
 */
export function Alert({
  kind,
  id,
  className = "",
  focus = false,
  live = true,
  children,
}: {
  kind: AlertKind;
  id?: string;
  className?: string;
  focus?: boolean;
  live?: boolean;
  children: ReactNode;
}) {
  const urgent = kind === "error" || kind === "warning";
  const focusProps = useFocusOnArrival<HTMLDivElement>(focus);
  return (
    <div id={id} role={live ? (urgent ? "alert" : "status") : undefined} className={`alert ${TONE[kind]} ${className}`.trim()} {...focusProps}>
      {children}
    </div>
  );
}
