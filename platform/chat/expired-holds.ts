import type { Deps } from "../context";
import { expiredReservations, release } from "../spend/reservations";
import { chargeInterrupted } from "./service";
import { runPeriodically } from "../periodic";

/** How often expired reservations are looked for. */
export const SWEEP_INTERVAL_MS = 60_000;

/**
 * Finishes the holds of requests that never settled because their process died (decision 0084): a
 * stream that had recorded what it sent is charged for that (decision 0102), and any other hold is
 * released for nothing. Each in its own transaction, by the same delete that settlement uses, so a late
 * settlement releases nothing twice. Returns how many were finished.
 *
 * A hold is a dead process's once it expired or, when this process is the database's only one (a
 * locked SQLite file), once it was made before `orphansBefore`, the time this process started.
 */
export async function sweepExpiredReservations(deps: Deps, orphansBefore?: number): Promise<number> {
  let count = 0;
  for (const { receipt_id, progress } of await expiredReservations(deps, orphansBefore)) {
    if (progress === null) {
      if (await release(deps, receipt_id)) count += 1;
      continue;
    }
    try {
      await chargeInterrupted(deps, receipt_id, progress);
      count += 1;
    } catch (error) {
      console.error(`Charging the interrupted stream ${receipt_id} failed (tried again at the next sweep):`, error instanceof Error ? error.message : error);
    }
  }
  return count;
}

/**
 * Sweeps at start and every minute until closed (graceful shutdown calls `close`). With
 * `orphansBefore` (the database's only process), every sweep also finishes the holds made before then.
 */
export function startReservationSweeper(
  deps: Deps,
  { intervalMs = SWEEP_INTERVAL_MS, orphansBefore }: { intervalMs?: number; orphansBefore?: number } = {},
): { close: () => Promise<void> } {
  // One sweep at a time, and close() waits for the sweep in progress before the database closes.
  const sweeper = runPeriodically("Releasing expired spend reservations", () => sweepExpiredReservations(deps, orphansBefore), intervalMs, { atStart: true });
  return { close: sweeper.stop };
}
