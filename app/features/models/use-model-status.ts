import { useEffect, useState } from "react";
import type { StatusMap } from "./status";
import { STATUS_POLL_MS } from "./status";

/**
 * The model status map, refreshed every 30 s from the console's resource route. A failed poll is only
 * logged (SPEC §8); the last known map stays.
 */
export function useModelStatus(initial: StatusMap | null): StatusMap | null {
  const [map, setMap] = useState<StatusMap | null>(initial);
  useEffect(() => setMap(initial), [initial]);
  useEffect(() => {
    let cancelled = false;
    const poll = async () => {
      try {
        const response = await fetch("/resources/chat?status=1", { headers: { accept: "application/json" } });
        if (!response.ok) throw new Error(`status ${response.status}`);
        const next = (await response.json()) as StatusMap;
        if (!cancelled) setMap(next);
      } catch (error) {
        console.warn("Model status poll failed:", error);
      }
    };
    const timer = setInterval(() => void poll(), STATUS_POLL_MS);
    return () => {
      cancelled = true;
      clearInterval(timer);
    };
  }, []);
  return map;
}
