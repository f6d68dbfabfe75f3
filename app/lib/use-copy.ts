import { useCallback, useEffect, useRef, useState } from "react";

export const COPY_CONFIRMATION_MS = 2_000;

export type CopyStatus = "idle" | "copied" | "failed";

/**
 * Copies text to the clipboard; `status` is "copied" for 2 seconds afterwards (SPEC §9), or "failed"
 * as long when the browser refused, so that a failure is not silent.
 */
export function useCopy(durationMs = COPY_CONFIRMATION_MS) {
  const [status, setStatus] = useState<CopyStatus>("idle");
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const copy = useCallback(
    async (text: string) => {
      let copied = true;
      try {
        await navigator.clipboard.writeText(text);
      } catch {
        copied = false;
      }
      setStatus(copied ? "copied" : "failed");
      clearTimeout(timer.current);
      timer.current = setTimeout(() => setStatus("idle"), durationMs);
    },
    [durationMs],
  );
  return { status, copy };
}
