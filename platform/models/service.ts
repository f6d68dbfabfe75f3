import { createHash } from "node:crypto";
import fs from "node:fs";
import type { ModelInput, ModelSaveMode, ModelStatus, PublicModel } from "@contract/models";
import {
  API_KEY_FOR_NEW_BASE_URL,
  BASE_URL_REQUIRED,
  BUILTIN_PROVIDER,
  MODEL_CHANGED,
  MODEL_NAME_DOT_SEGMENT,
  MODEL_NAME_EMPTY_SEGMENT,
  MODEL_NAME_TAKEN,
  hasDotSegment,
  hasEmptySegment,
  modelInputSchema,
} from "@contract/models";
import { record } from "../audit/record";
import type { Deps } from "../context";
import { SYSTEM_ORG_ID } from "../context";
import type { DB } from "../db";
import type { ModelRow } from "../db/schema";
import { PlatformError } from "../http/errors";
import { bySystemAdmin } from "../orgs/admin-lock";
import { probeUpstream } from "../providers/upstream";
import { compiledOnce } from "../db/compiled";
import { deleteStatuses, recordOverride, recordStatuses } from "./history";
import { storedKey, upstreamKey } from "./upstream-keys";
import type { RecentTraffic } from "./metrics";
import { flushMetrics, recentTraffic } from "./metrics";

/** How long a probed status map is reused (SPEC §9 polls every 30 s; one probe round serves them all). */
export const STATUS_CACHE_MS = 30_000;
/** A dead upstream costs at most this much, and probes run side by side. */
export const PROBE_TIMEOUT_MS = 2_000;

export function toPublicModel(row: ModelRow): PublicModel {
  return {
    name: row.name,
    displayName: row.display_name,
    provider: row.provider,
    contextSize: row.context_size,
    rateCard: row.rate_card_id
      ? { id: row.rate_card_id, inputPerMillion: row.input_micros_per_million / 1e6, outputPerMillion: row.output_micros_per_million / 1e6 }
      : null,
  };
}

export function isBuiltin(row: Pick<ModelRow, "provider">): boolean {
  return row.provider === BUILTIN_PROVIDER;
}

export function isPriced(row: Pick<ModelRow, "input_micros_per_million" | "output_micros_per_million" | "provider">): boolean {
  return !isBuiltin(row) && (row.input_micros_per_million > 0 || row.output_micros_per_million > 0);
}

/**
 * In position order, ties (the editor's `max + 1` and MODELS_FILE's `index + 1` can meet) by name in
 * code-unit order: sorted here, as a PostgreSQL cluster's collation would order "alpha" and "Zephyr"
 * unlike SQLite (decision 0139).
 */
export async function listModels(deps: Deps): Promise<ModelRow[]> {
  const rows = await deps.db.selectFrom("models").selectAll().execute();
  return rows.sort((a, b) => a.position - b.position || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

const modelByName = compiledOnce((db, name: string) => db.selectFrom("models").selectAll().where("name", "=", name));

export async function findModel(deps: Deps, name: string): Promise<ModelRow | undefined> {
  const [model] = await modelByName(deps.db, name);
  return model;
}

/** A base URL as it is kept: without trailing slashes (the upstream's paths are appended to it). */
const storedBaseUrl = (url: string | null | undefined): string | null => (url ? url.replace(/\/+$/, "") : null);

/**
 * How a write meets the stored row: `upsert` (MODELS_FILE, and a PUT that says nothing) creates or
 * replaces; `insert` writes only a name not taken; `update` only a model still there. Answers whether
 * a row was written.
 */
type ModelWrite = "upsert" | "insert" | "update";

/** Writes a model row; `input.apiKey` is the key as stored (`storedKey`: sealed when the process has the secret). */
export async function upsertModel(db: DB, input: ModelInput, position: number, now: number, write: ModelWrite = "upsert"): Promise<boolean> {
  // The routes and MODELS_FILE check names by the contract; a caller that did not still can't make a
  // model the editor would reach as another one, or whose page no link reaches.
  const nameProblem = hasDotSegment(input.name) ? MODEL_NAME_DOT_SEGMENT : hasEmptySegment(input.name) ? MODEL_NAME_EMPTY_SEGMENT : null;
  if (nameProblem) throw new PlatformError(400, `name: ${nameProblem}`, { fields: { name: nameProblem } });
  if (input.provider !== BUILTIN_PROVIDER && !input.baseUrl) {
    throw new PlatformError(400, `baseUrl: ${BASE_URL_REQUIRED}`, { fields: { baseUrl: BASE_URL_REQUIRED } });
  }
  if (input.defaultMaxTokens != null && input.defaultMaxTokens > input.contextSize) {
    const message = "The default max tokens must be at most the context size";
    throw new PlatformError(400, `defaultMaxTokens: ${message}`, { fields: { defaultMaxTokens: message } });
  }
  const values = {
    default_max_tokens: input.defaultMaxTokens ?? null,
    display_name: input.displayName,
    provider: input.provider,
    context_size: input.contextSize,
    base_url: storedBaseUrl(input.baseUrl),
    api_key: input.apiKey ?? null,
    upstream_model: input.upstreamModel ?? input.name,
    rate_card_id: input.rateCard?.id ?? null,
    input_micros_per_million: Math.round((input.rateCard?.inputPerMillion ?? 0) * 1e6),
    output_micros_per_million: Math.round((input.rateCard?.outputPerMillion ?? 0) * 1e6),
    status_override: input.status ?? null,
    alert_error_rate_pct: input.alertErrorRatePct ?? null,
    alert_ttft_ms: input.alertTtftMs ?? null,
    publish_metrics: input.publishMetrics ? 1 : 0,
  };
  if (write === "update") {
    return (await db.updateTable("models").set(values).where("name", "=", input.name).returning("name").executeTakeFirst()) !== undefined;
  }
  const written = await db
    .insertInto("models")
    .values({ name: input.name, ...values, position, created_at: now })
    .onConflict((oc) => (write === "insert" ? oc.column("name").doNothing() : oc.column("name").doUpdateSet(values)))
    .returning("name")
    .executeTakeFirst();
  return written !== undefined;
}

/**
 * What an edit was made from (decision 0138): a digest of every stored field the editor shows, so any
 * save in between that changed one (the editor's, MODELS_FILE's) gives another. Not the key: it is
 * write-only (a form that sends none keeps the one stored when it saves), and a digest of it would be a
 * way to test guesses of it. Read and compared on the same database, so its numbers' types agree.
 */
export function modelVersion(row: ModelRow): string {
  const fields = [
    row.display_name,
    row.provider,
    row.context_size,
    row.base_url,
    row.upstream_model,
    row.rate_card_id,
    row.input_micros_per_million,
    row.output_micros_per_million,
    row.status_override,
    row.alert_error_rate_pct,
    row.alert_ttft_ms,
    row.publish_metrics,
    row.default_max_tokens,
  ].map((v) => (v === null || v === undefined ? null : String(v)));
  return createHash("sha256").update(JSON.stringify(fields)).digest("base64url").slice(0, 22);
}

/** PUT /models/{name} with `mode: "edit"` on a model that is gone (another admin deleted it): nothing is written. */
export const MODEL_GONE = "Model not found";

/**
 * Saves a model from the editor. `mode` (decision 0126): "add" refuses a name that is taken (409, on
 * the name field) and "edit" a model that is gone (404), each in the same statement as the write, so a
 * stale edit form never brings a deleted model back and two adds of one name never overwrite each
 * other; without it the PUT creates or replaces, as it always did. From the editor, `actorId` is its
 * caller, checked in the transaction to still be a system admin.
 */
export async function saveModel(deps: Deps, input: ModelInput & { mode?: ModelSaveMode; version?: string }, actorId?: number): Promise<void> {
  const { mode, version, ...model } = input;
  const existing = await bySystemAdmin(deps, actorId, async (trx) => {
    // Read the row by writing it unchanged: PostgreSQL holds it (what this save read is what it
    // replaces, and what its audit entry says it was), SQLite takes its write lock from the start.
    const existing = await trx
      .updateTable("models")
      .set((eb) => ({ position: eb.ref("position") }))
      .where("name", "=", model.name)
      .returningAll()
      .executeTakeFirst();
    if (mode === "edit" && !existing) throw new PlatformError(404, MODEL_GONE);
    // Another admin saved it after this edit's form was filled: theirs is not overwritten unseen.
    if (mode === "edit" && version !== undefined && existing && modelVersion(existing) !== version) throw new PlatformError(409, MODEL_CHANGED);
    if (mode === "add" && existing) throw new PlatformError(409, `name: ${MODEL_NAME_TAKEN}`, { fields: { name: MODEL_NAME_TAKEN } });
    // The key is write-only: an edit that sends no apiKey keeps the current one (as stored); null removes it.
    // But not for another host: whoever may edit a model could otherwise point it at their own server and
    // read the provider's key from the next status probe (decision 0124).
    const baseUrl = storedBaseUrl(model.baseUrl);
    if (model.apiKey === undefined && existing?.api_key && baseUrl !== null && baseUrl !== existing.base_url)
      throw new PlatformError(400, `apiKey: ${API_KEY_FOR_NEW_BASE_URL}`, { fields: { apiKey: API_KEY_FOR_NEW_BASE_URL } });
    const apiKey = model.apiKey === undefined ? (existing?.api_key ?? null) : storedKey(deps.db, model.apiKey);
    const last = await trx
      .selectFrom("models")
      .select((eb) => eb.fn.max("position").as("max"))
      .executeTakeFirst();
    const write: ModelWrite = mode === "add" ? "insert" : mode === "edit" ? "update" : "upsert";
    const written = await upsertModel(trx, { ...model, apiKey }, existing?.position ?? Number(last?.max ?? 0) + 1, deps.now(), write);
    // An add racing another add of the same name (PostgreSQL: there was no row to hold yet).
    if (!written && mode === "edit") throw new PlatformError(404, MODEL_GONE);
    if (!written) throw new PlatformError(409, `name: ${MODEL_NAME_TAKEN}`, { fields: { name: MODEL_NAME_TAKEN } });
    // In the system organization's log, with the change (decision 0126): never the key, only whether it changed.
    const after = await trx.selectFrom("models").selectAll().where("name", "=", model.name).executeTakeFirstOrThrow();
    const entry = modelChangeEntry(existing, after, keyChanged(deps.db, existing?.api_key ?? null, model.apiKey));
    if (entry) await record(deps, { orgId: SYSTEM_ORG_ID, target: model.name, ...entry }, trx);
    return existing;
  });
  statusCache.delete(deps.db);
  if (model.status && model.status !== existing?.status_override) await recordOverride(deps, model.name, model.status);
}

/**
 * DELETE /models/{name}: `actorId` as for `saveModel`. Its status history and reliability figures go
 * with it, so a model added later under the name starts with none (decision 0140); the organizations'
 * usage and the audit log keep theirs.
 */
export async function deleteModel(deps: Deps, name: string, actorId?: number): Promise<void> {
  // This process's counters not yet written would otherwise land after the delete.
  await flushMetrics(deps.db);
  await bySystemAdmin(deps, actorId, async (trx) => {
    const deleted = await trx.deleteFrom("models").where("name", "=", name).returningAll().executeTakeFirst();
    if (!deleted) throw new PlatformError(404, MODEL_GONE);
    await deleteStatuses(deps, trx, name);
    await trx.deleteFrom("model_minute_stats").where("model", "=", name).execute();
    await record(deps, { orgId: SYSTEM_ORG_ID, action: "model.deleted", target: name, old: auditedModel(deleted) }, trx);
  });
  statusCache.delete(deps.db);
}

/** A base URL as the audit log shows it: a user name, password or query stored before they were refused stays out. */
function auditedUrl(url: string | null): string | null {
  if (!url || !URL.canParse(url)) return url;
  const parsed = new URL(url);
  return parsed.username || parsed.password || parsed.search || parsed.hash ? `${parsed.origin}${parsed.pathname}` : url;
}

/** What the audit log says of a model: the fields an operator reads first, always, old and new. */
function auditedModel(row: ModelRow) {
  return {
    displayName: row.display_name,
    baseUrl: auditedUrl(row.base_url),
    rateCardId: row.rate_card_id,
    inputPerMillion: row.input_micros_per_million / 1e6,
    outputPerMillion: row.output_micros_per_million / 1e6,
    statusOverride: row.status_override,
  };
}

/** The other fields, recorded only when a save changes them. */
function otherFields(row: ModelRow) {
  return {
    provider: row.provider,
    contextSize: row.context_size,
    upstreamModel: row.upstream_model,
    defaultMaxTokens: row.default_max_tokens,
    alertErrorRatePct: row.alert_error_rate_pct,
    alertTtftMs: row.alert_ttft_ms,
    publishMetrics: Boolean(row.publish_metrics),
  };
}

/** Whether a save changes the key: none sent keeps it; null removes one; a key typed again as it was changes nothing. */
function keyChanged(db: DB, stored: string | null, sent: string | null | undefined): boolean {
  if (sent === undefined) return false;
  if (sent === null || stored === null) return sent !== stored;
  try {
    return upstreamKey(db, stored) !== sent;
  } catch {
    return true;
  }
}

/** The audit entry of a save: created, or changed (old and new; nothing when nothing changed). */
function modelChangeEntry(before: ModelRow | undefined, after: ModelRow, apiKeyChanged: boolean) {
  const yesNo = apiKeyChanged ? "yes" : "no";
  if (!before) return { action: "model.created" as const, new: { ...auditedModel(after), ...otherFields(after), apiKeyChanged: yesNo } };
  const [was, now] = [otherFields(before), otherFields(after)];
  const changed = (Object.keys(now) as (keyof typeof now)[]).filter((key) => was[key] !== now[key]);
  const pick = (fields: typeof now) => Object.fromEntries(changed.map((key) => [key, fields[key]]));
  const old = { ...auditedModel(before), ...pick(was) };
  const next = { ...auditedModel(after), ...pick(now) };
  if (!apiKeyChanged && JSON.stringify(old) === JSON.stringify(next)) return null;
  return { action: "model.changed" as const, old, new: { ...next, apiKeyChanged: yesNo } };
}

/** A MODELS_FILE the start can't use: the message names the file and the entry, and is all an operator needs. */
export class ModelsFileError extends Error {
  override name = "ModelsFileError";
}

/** JSON with object keys sorted: the same entry hashes the same however the file orders or spaces it. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`)
      .join(",")}}`;
  }
  return JSON.stringify(value);
}

export function entryHash(entry: unknown): string {
  return createHash("sha256").update(canonicalJson(entry)).digest("hex");
}

/**
 * Applies MODELS_FILE: a JSON list of models (or `{"models": [...]}`). Every entry is checked first (a
 * bad file stops the start with a message naming the entry, and changes nothing); then only the
 * entries that are new or changed since they were last applied are upserted, in file order. An
 * unchanged entry leaves its model as the editor left it, even deleted (decision 0099).
 */
export async function applyModelsFile(db: DB, file: string, now = Date.now()): Promise<{ entries: number; applied: string[] }> {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (error) {
    throw new ModelsFileError(`MODELS_FILE ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const list = Array.isArray(raw) ? raw : (raw as { models?: unknown })?.models;
  if (!Array.isArray(list)) throw new ModelsFileError(`MODELS_FILE ${file}: expected a JSON list of models`);
  const entries = list.map((entry: unknown, index) => {
    const parsed = modelInputSchema.safeParse(entry);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new ModelsFileError(`MODELS_FILE ${file}, entry ${index}: ${issue.path.join(".")}: ${issue.message}`);
    }
    return { index, input: parsed.data, hash: entryHash(entry) };
  });
  const previous = new Map((await db.selectFrom("models_file_applied").select(["name", "entry_hash"]).execute()).map((r) => [r.name, r.entry_hash]));
  const applied: string[] = [];
  for (const { index, input, hash } of entries) {
    if (previous.get(input.name) === hash) continue;
    try {
      await upsertModel(db, { ...input, apiKey: storedKey(db, input.apiKey ?? null) }, index + 1, now);
    } catch (error) {
      throw new ModelsFileError(`MODELS_FILE ${file}, entry ${index}: ${error instanceof Error ? error.message : String(error)}`);
    }
    await db
      .insertInto("models_file_applied")
      .values({ name: input.name, entry_hash: hash, applied_at: now })
      .onConflict((oc) => oc.column("name").doUpdateSet({ entry_hash: hash, applied_at: now }))
      .execute();
    applied.push(input.name);
  }
  // An entry taken out of the file and put back later counts as new again.
  const named = entries.map((e) => e.input.name);
  const gone = [...previous.keys()].filter((name) => !named.includes(name));
  if (gone.length > 0) await db.deleteFrom("models_file_applied").where("name", "in", gone).execute();
  return { entries: entries.length, applied };
}

/** A probe's cache key: the upstream's address and the key sent to it (hashed: no key sits in the map). */
const probeKey = (baseUrl: string | null, apiKey: string | null): string =>
  `${baseUrl}\n${apiKey === null ? "" : createHash("sha256").update(apiKey).digest("base64url")}`;

/** Probe results, per process: by upstream (address and key), each kept for 30 s. */
const statusCache = new WeakMap<DB, Map<string, { at: number; status: Promise<ModelStatus> }>>();

/**
 * How much recent real traffic overrules a probe that says online (M6, audit N): over the last 5
 * minutes, at least 5 requests (client aborts left out), at least half of them failed on the model's
 * side. Five, so one user's two failed tries do not mark a model down for everyone; five minutes, so
 * an outage shows within a poll or two and a repaired model is online again soon after (the window
 * empties, or its new answers outweigh the failures); half, because a model failing every other
 * request is not "accepting requests" in any useful sense. 429s are busy, not down: never counted.
 */
export const TRAFFIC_WINDOW_MS = 5 * 60_000;
export const TRAFFIC_MIN_REQUESTS = 5;
export const TRAFFIC_FAILED_SHARE = 0.5;

/** The recent traffic, per process: one grouped read of the minute rows, kept as long as a probe round. */
const trafficCache = new WeakMap<DB, { at: number; traffic: Promise<Map<string, RecentTraffic>> }>();

function recentTrafficOf(deps: Deps): Promise<Map<string, RecentTraffic>> {
  let cached = trafficCache.get(deps.db);
  if (!cached || deps.now() - cached.at >= STATUS_CACHE_MS) {
    const traffic = recentTraffic(deps, deps.now() - TRAFFIC_WINDOW_MS).catch((error: unknown) => {
      // The probes still answer: a status without the traffic's word is better than none.
      console.error("Reading recent model traffic failed:", error instanceof Error ? error.message : error);
      trafficCache.delete(deps.db);
      return new Map<string, RecentTraffic>();
    });
    trafficCache.set(deps.db, (cached = { at: deps.now(), traffic }));
  }
  return cached.traffic;
}

/**
 * A probed status as the model's recent traffic corrects it: a model whose `/models` answers while its
 * chat requests fail is not online. Mostly 503s: starting (what a 503 means, SPEC §4, and what the
 * probe says of one); other failures (unreachable, 5xx, unreadable, broken off, timed out): offline.
 * Only "online" is overruled: the probe's offline and starting already say the model is not serving.
 */
export function statusWithTraffic(probed: ModelStatus, traffic: RecentTraffic | undefined): ModelStatus {
  if (probed !== "online" || !traffic || traffic.requests < TRAFFIC_MIN_REQUESTS) return probed;
  if (traffic.failed + traffic.unavailable < traffic.requests * TRAFFIC_FAILED_SHARE) return probed;
  return traffic.unavailable > traffic.failed ? "starting" : "offline";
}

/** Keys this process could not open and said so, per process: by model and the sealed key's digest. */
const reportedKeys = new WeakMap<DB, Set<string>>();
const REPORTED_KEYS_MAX = 1000;

/**
 * Whether a model's unopened key is news: every open page polls the status every 30 s, and the same key
 * said every time buried the rest of the log. Said again once the key stored changes (saved again,
 * resealed) or the process starts again (with other secrets).
 */
function firstReport(db: DB, model: string, sealed: string | null): boolean {
  let reported = reportedKeys.get(db);
  if (!reported) reportedKeys.set(db, (reported = new Set()));
  const digest = createHash("sha256")
    .update(sealed ?? "")
    .digest("base64url");
  const key = `${model}\n${digest}`;
  if (reported.has(key)) return false;
  // The oldest goes first: a bound, not a limit any deployment's models reach.
  if (reported.size >= REPORTED_KEYS_MAX) reported.delete(reported.values().next().value!);
  reported.add(key);
  return true;
}

/**
 * Each model's status: the operator's override, else a probe of its upstream (online when `/models`
 * answers, or answers 429: busy; starting on 503, offline when unreachable; one probe per upstream and
 * key), corrected by its last minutes of real traffic (statusWithTraffic). The registry is read on every call, so an override set through any process is
 * seen by all at once; probe results and the traffic read are reused for 30 s, and the probes that
 * are due run concurrently with a short timeout.
 */
export async function modelStatuses(deps: Deps): Promise<Record<string, ModelStatus>> {
  const models = await listModels(deps);
  let probes = statusCache.get(deps.db);
  if (!probes) statusCache.set(deps.db, (probes = new Map()));
  const traffic = models.some((m) => !m.status_override && !isBuiltin(m)) ? recentTrafficOf(deps) : null;
  const entries = await Promise.all(
    models.map(async (m): Promise<[string, ModelStatus]> => {
      if (m.status_override) return [m.name, m.status_override];
      if (isBuiltin(m)) return [m.name, "online"];
      // One probe per upstream and key a round: `/models` says nothing of one model, so the models
      // that share an address and key share its answer (the key as sent, so keys sealed apart still match).
      let apiKey: string | null;
      try {
        apiKey = upstreamKey(deps.db, m.api_key);
      } catch (error) {
        // A key this process cannot open (a rotation left half done): that model cannot be called, and the
        // others' statuses still answer.
        if (firstReport(deps.db, m.name, m.api_key)) console.error(`Status of ${m.name}: ${error instanceof Error ? error.message : String(error)}`);
        return [m.name, "offline"];
      }
      const key = probeKey(m.base_url, apiKey);
      let probe = probes.get(key);
      if (!probe || deps.now() - probe.at >= STATUS_CACHE_MS) {
        probe = { at: deps.now(), status: probeUpstream({ base_url: m.base_url, api_key: apiKey }, PROBE_TIMEOUT_MS) };
        probes.set(key, probe);
        probe.status.catch(() => probes.delete(key));
      }
      const [probed, recent] = await Promise.all([probe.status, traffic]);
      return [m.name, statusWithTraffic(probed, recent?.get(m.name))];
    }),
  );
  await recordStatuses(
    deps,
    // "probe": what the platform observed of the model, its probe as its traffic corrected it.
    entries.map(([name, status]) => ({ model: name, status, source: models.find((m) => m.name === name)?.status_override ? "override" : "probe" })),
  );
  return Object.fromEntries(entries);
}

/** Forget probed statuses and the traffic read with them (after an operator change, or in tests). */
export function clearStatusCache(db: DB): void {
  statusCache.delete(db);
  trafficCache.delete(db);
}
