import { useCallback, useEffect, useRef, useState } from "react";

export const COPY_CONFIRMATION_MS = 2_000;

/** Copies text to the clipboard; `copied` is true for 2 seconds afterwards (SPEC §9). */
export function useCopy(durationMs = COPY_CONFIRMATION_MS) {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const copy = useCallback(
    async (text: string) => {
      try {
        await navigator.clipboard.writeText(text);
      } catch {
        return false;
      }
      setCopied(true);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => setCopied(false), durationMs);
      return true;
    },
    [durationMs],
  );
  return { copied, copy };
}
