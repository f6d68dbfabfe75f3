import { useEffect } from "react";
import { keepAllDrafts } from "~/lib/form-drafts";

export const INACTIVITY_TIMEOUT_MS = 300_000;
const ACTIVITY_EVENTS = ["mousemove", "keydown", "click", "scroll"] as const;

/** Whether a session answer means the user is still signed in (DESIGN §6: non-ok or valid:false fail). */
export async function sessionStillValid(response: Response): Promise<boolean> {
  if (!response.ok) return false;
  const body = (await response.json().catch(() => null)) as { valid?: unknown } | null;
  return body?.valid === true;
}

/**
 * After 5 minutes without activity, re-check the session; a failed check goes to /login (SPEC §4),
 * remembering the page and keeping what was typed into its forms for after signing in again.
 */
export function useInactivityCheck(userId: number | null, timeoutMs = INACTIVITY_TIMEOUT_MS) {
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout>;
    const check = async () => {
      try {
        const response = await fetch("/api/v1/auth/session", { credentials: "same-origin", headers: { accept: "application/json" } });
        if (!(await sessionStillValid(response))) {
          keepAllDrafts(userId);
          // The page is remembered, as for a signed-out visit: signing in again comes back to it.
          window.location.assign(`/login?${new URLSearchParams({ redirectTo: window.location.pathname + window.location.search })}`);
        }
      } catch {
        // Offline: keep the page; the next activity or navigation checks again.
      }
      arm();
    };
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(check, timeoutMs);
    };
    arm();
    for (const event of ACTIVITY_EVENTS) window.addEventListener(event, arm, { passive: true, capture: true });
    return () => {
      clearTimeout(timer);
      for (const event of ACTIVITY_EVENTS) window.removeEventListener(event, arm, { capture: true });
    };
  }, [timeoutMs, userId]);
}
