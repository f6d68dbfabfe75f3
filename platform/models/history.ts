import { sql } from "kysely";
import type { ModelStatus, StatusBand } from "@contract/models";
import type { Deps } from "../context";
import type { DB } from "../db";

/** How long this process trusts its copy of each model's last recorded status (other processes record too). */
const LAST_KNOWN_MS = 30_000;
const lastKnown = new WeakMap<DB, { at: number; statuses: Map<string, string> }>();

async function lastStatuses(deps: Deps): Promise<Map<string, string>> {
  const cached = lastKnown.get(deps.db);
  if (cached && deps.now() - cached.at < LAST_KNOWN_MS) return cached.statuses;
  const latest = deps.db
    .selectFrom("model_status_history")
    .select((eb) => eb.fn.max("id").as("id"))
    .groupBy("model");
  const rows = await deps.db.selectFrom("model_status_history").select(["model", "status"]).where("id", "in", latest).execute();
  const statuses = new Map(rows.map((r) => [r.model, r.status]));
  lastKnown.set(deps.db, { at: deps.now(), statuses });
  return statuses;
}

/**
 * Writes history rows, only of models that still exist, in one statement: a status round that began
 * before a delete leaves nothing under the name for a model added later (decision 0140). Answers the
 * models written.
 */
async function insertStatuses(deps: Deps, statuses: { model: string; status: ModelStatus; source: "probe" | "override" }[]): Promise<string[]> {
  const names = statuses.map((s) => s.model);
  const cases = (field: "status" | "source") => statuses.map((s) => sql`when name = ${s.model} then ${s[field]}`);
  const of = (field: "status" | "source") => sql<string>`case ${sql.join(cases(field), sql` `)} end`;
  const rows = await deps.db
    .insertInto("model_status_history")
    .columns(["model", "status", "source", "at"])
    .expression(
      deps.db
        .selectFrom("models")
        .select(["name", of("status").as("status"), of("source").as("source"), sql.lit(deps.now()).as("at")])
        .where("name", "in", names),
    )
    .returning("model")
    .execute();
  return rows.map((r) => r.model);
}

/**
 * Keeps each status that differs from the model's last recorded one (a probe result, or an override
 * read with the registry). Two processes may record the same change twice; a repeated status changes
 * no interval, so uptime is the same.
 */
export async function recordStatuses(deps: Deps, statuses: { model: string; status: ModelStatus; source: "probe" | "override" }[]): Promise<void> {
  try {
    const last = await lastStatuses(deps);
    const changed = statuses.filter((s) => s.status !== "unknown" && last.get(s.model) !== s.status);
    if (changed.length === 0) return;
    const written = await insertStatuses(deps, changed);
    for (const s of changed) if (written.includes(s.model)) last.set(s.model, s.status);
  } catch (error) {
    // The live status is answered whatever happens to its history.
    console.error("Recording model status failed:", error instanceof Error ? error.message : error);
  }
}

/** An operator's override change is always kept (while the model is there). */
export async function recordOverride(deps: Deps, model: string, status: ModelStatus): Promise<void> {
  if ((await insertStatuses(deps, [{ model, status, source: "override" }])).length > 0) lastKnown.get(deps.db)?.statuses.set(model, status);
}

/**
 * Deletes a model's status history, in the transaction that deletes the model: a model added later
 * under the name starts with none, rather than the old one's last status carried over the time no
 * model existed (decision 0140).
 */
export async function deleteStatuses(deps: Deps, trx: DB, model: string): Promise<void> {
  await trx.deleteFrom("model_status_history").where("model", "=", model).execute();
  lastKnown.get(deps.db)?.statuses.delete(model);
}

/** The known statuses of a model over [from, to): the one in force at `from`, then each change. Time before the first record is left out. */
export async function statusBands(deps: Deps, model: string, from: number, to: number): Promise<StatusBand[]> {
  const before = await deps.db
    .selectFrom("model_status_history")
    .select(["status", "at"])
    .where("model", "=", model)
    .where("at", "<=", from)
    .orderBy("at", "desc")
    .orderBy("id", "desc")
    .limit(1)
    .execute();
  const during = await deps.db
    .selectFrom("model_status_history")
    .select(["status", "at"])
    .where("model", "=", model)
    .where("at", ">", from)
    .where("at", "<", to)
    .orderBy("at")
    .orderBy("id")
    .execute();
  return bandsOf([...before, ...during], from, to);
}

/** Status changes (the one in force at `from` first, then in order) as bands over [from, to). */
function bandsOf(changes: { status: string; at: number | string }[], from: number, to: number): StatusBand[] {
  const bands: StatusBand[] = [];
  for (const [i, change] of changes.entries()) {
    const start = Math.max(from, Number(change.at));
    const end = i + 1 < changes.length ? Number(changes[i + 1].at) : to;
    if (end <= start) continue;
    const last = bands.at(-1);
    if (last && last.status === change.status && last.to === start) last.to = end;
    else bands.push({ status: change.status as ModelStatus, from: start, to: end });
  }
  return bands;
}

/** The same bands cut to [from, to) within them: the 24 hours out of the 7 days, with no query. */
function clip(bands: StatusBand[], from: number, to: number): StatusBand[] {
  return bands.flatMap((b) => (b.to <= from || b.from >= to ? [] : [{ ...b, from: Math.max(b.from, from), to: Math.min(b.to, to) }]));
}

/**
 * Every model's uptime over the last 24 hours and 7 days, in two queries whatever the number of models
 * (each model's status in force 7 days ago, and every change since), not four per model: 1,200 queries
 * for a request of /chat or /models with 300 models (decision 0137).
 */
export async function uptimes(deps: Deps, dayMs: number): Promise<Map<string, { uptime24h: number | null; uptime7d: number | null }>> {
  const to = deps.now();
  const from = to - 7 * dayMs;
  // Each model with the last change at or before `from` (the status in force then), if any.
  const inForce = await deps.db
    .selectFrom("models as m")
    .leftJoin("model_status_history as h", (join) =>
      join.on((eb) =>
        eb(
          "h.id",
          "=",
          eb
            .selectFrom("model_status_history as last")
            .select("last.id")
            .whereRef("last.model", "=", "m.name")
            .where("last.at", "<=", from)
            .orderBy("last.at", "desc")
            .orderBy("last.id", "desc")
            .limit(1),
        ),
      ),
    )
    .select(["m.name", "h.status", "h.at"])
    .execute();
  const since = await deps.db
    .selectFrom("model_status_history")
    .select(["model", "status", "at"])
    .where("at", ">", from)
    .where("at", "<", to)
    .orderBy("model")
    .orderBy("at")
    .orderBy("id")
    .execute();
  const changes = new Map<string, { status: string; at: number | string }[]>();
  for (const row of inForce) changes.set(row.name, row.status !== null && row.at !== null ? [{ status: row.status, at: row.at }] : []);
  for (const row of since) changes.get(row.model)?.push(row);
  const result = new Map<string, { uptime24h: number | null; uptime7d: number | null }>();
  for (const [model, list] of changes) {
    const week = bandsOf(list, from, to);
    result.set(model, { uptime24h: uptimeOf(clip(week, to - dayMs, to)), uptime7d: uptimeOf(week) });
  }
  return result;
}

export function uptimeOf(bands: StatusBand[]): number | null {
  const known = bands.reduce((sum, b) => sum + (b.to - b.from), 0);
  if (known === 0) return null;
  return bands.reduce((sum, b) => sum + (b.status === "online" ? b.to - b.from : 0), 0) / known;
}
