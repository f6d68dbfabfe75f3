import type { Transaction } from "kysely";
import type { ApiToken, CreatedApiToken, CreateToken, TokenSettings } from "@contract/tokens";
import { TOKEN_CHANGED, TOKEN_SCOPES } from "@contract/tokens";
import { createHash } from "node:crypto";
import type { Deps } from "../context";
import type { ApiTokensTable, Database } from "../db/schema";
import type { Selectable } from "kysely";
import { PlatformError } from "../http/errors";
import { TOKEN_CREATION_PER_ORG, TooManyRequests } from "../ratelimit/limits";
import { hit } from "../ratelimit/store";
import { hashTokenSecret, newPublicId, newTokenSecret } from "./secret";
import { compiledOnce } from "../db/compiled";
import { dollarsToMicros, microsToDollars } from "../billing/money";
import { monthKey } from "../spend/reservations";
import { record, recordChange } from "../audit/record";
import type { RollGrace } from "@contract/token-rotation";
import { ROLL_GRACE_MS } from "@contract/token-rotation";
import { lockedByAdmin } from "../orgs/admin-lock";

/** The latest expiry a token can have (decision 0083): ten years of 365.25 days. */
export const MAX_EXPIRY_AHEAD_MS = 10 * 365.25 * 24 * 3600 * 1000;

type Row = Selectable<ApiTokensTable>;

export function allowedModelsOf(row: Pick<Row, "allowed_models">): string[] | null {
  return row.allowed_models === null ? null : (JSON.parse(row.allowed_models) as string[]);
}

/**
 * `maker`: the name of the user the token's `created_by` names, when the answer says who made it (GET
 * /tokens); left out, the answer says nothing of it. The primary token is the organization's own, not
 * its creator's (SPEC §3), so it has no maker.
 */
function toApiToken(row: Row, now = Date.now(), maker?: { name: string | null }): ApiToken {
  const monthly = row.budget_period === "month";
  // Spent, as the budget counts it: this month's for a monthly budget (a past month's counts as nothing).
  const spent = monthly ? (row.month_key === monthKey(now) ? row.month_spent_micros : 0) : row.spent_micros;
  return {
    publicId: row.public_id,
    // The primary token carries every scope the API knows, including ones added after it was made.
    scopes: row.is_primary ? [...TOKEN_SCOPES] : (JSON.parse(row.scopes) as string[]),
    expiresAt: row.expires_at,
    revoked: row.revoked_at !== null,
    createdAt: row.created_at,
    primary: row.is_primary === 1,
    lastUsedAt: row.last_used_at,
    budget:
      row.budget_micros === null ? null : { amount: microsToDollars(row.budget_micros), period: monthly ? "month" : "total", spent: microsToDollars(spent) },
    allowedModels: allowedModelsOf(row),
    rateLimitRpm: row.rate_limit_rpm,
    ...(row.previous_secret_expires_at !== null && row.previous_secret_expires_at > now && { previousSecretExpiresAt: row.previous_secret_expires_at }),
    version: tokenVersion(row),
    ...(maker && { createdBy: row.is_primary || row.created_by === null || maker.name === null ? null : { id: row.created_by, name: maker.name } }),
  };
}

/**
 * What a roll, a reset or a settings save was made from (decision 0139): a digest of what they change
 * (when the secret last changed, revocation, expiry, the settings), never of the secret. Two admins (or
 * a double submit) rolling at once both succeeded, the second moving the first one's new secret aside
 * and ending the grace of the secret in use; two settings saves each dropped the other's change.
 */
function tokenVersion(row: Row): string {
  const fields = [row.rolled_at, row.revoked_at, row.expires_at, row.budget_micros, row.budget_period, row.allowed_models, row.rate_limit_rpm].map((v) =>
    v === null || v === undefined ? null : String(v),
  );
  return createHash("sha256").update(JSON.stringify(fields)).digest("base64url").slice(0, 22);
}

/** Refuses a change made from another version of the token than the one stored (none sent: no check). */
function refuseChangedSince(row: Row, version: string | undefined): void {
  if (version !== undefined && tokenVersion(row) !== version) throw new PlatformError(409, TOKEN_CHANGED);
}

/** A token's settings as the audit log shows them (never its secret). */
function auditedSettings(token: ApiToken) {
  return {
    budget: token.budget && { amount: token.budget.amount, period: token.budget.period },
    allowedModels: token.allowedModels,
    rateLimitRpm: token.rateLimitRpm,
  };
}

/** The columns of a token's spend settings (issue 11); only the fields given are written. */
function settingsColumns(input: Partial<TokenSettings>) {
  return {
    ...(input.budget !== undefined
      ? { budget_micros: input.budget ? dollarsToMicros(input.budget.amount) : null, budget_period: input.budget ? input.budget.period : null }
      : {}),
    ...(input.allowedModels !== undefined ? { allowed_models: input.allowedModels ? JSON.stringify([...new Set(input.allowedModels)]) : null } : {}),
    ...(input.rateLimitRpm !== undefined ? { rate_limit_rpm: input.rateLimitRpm } : {}),
  };
}

/** PUT /tokens/{publicId} (admins): a token's budget, allow-list and request rate; null removes each. */
export async function updateTokenSettings(deps: Deps, orgId: number, actorId: number, publicId: string, input: TokenSettings): Promise<ApiToken> {
  return lockedByAdmin(deps, orgId, actorId, async (trx) => {
    const before = await trx.selectFrom("api_tokens").selectAll().where("org_id", "=", orgId).where("public_id", "=", publicId).executeTakeFirst();
    if (!before) throw new PlatformError(404, "Token not found");
    // As the page offers settings for active tokens only: a revoked or expired token is refused every
    // call, so a change would only write an audit entry about a token that can do nothing.
    if (before.revoked_at !== null) throw new PlatformError(409, "This token is revoked");
    if (before.expires_at !== null && before.expires_at <= deps.now()) throw new PlatformError(409, "This token has expired");
    refuseChangedSince(before, input.version);
    const row = await trx.updateTable("api_tokens").set(settingsColumns(input)).where("id", "=", before.id).returningAll().executeTakeFirstOrThrow();
    const [old, now] = [auditedSettings(toApiToken(before, deps.now())), auditedSettings(toApiToken(row, deps.now()))];
    await recordChange(deps, { orgId, action: "token.settings_changed", target: publicId, old, new: now }, trx);
    return toApiToken(row, deps.now());
  });
}

// With each maker's name (null when their user row is gone): one query, however many tokens.
const tokensOf = compiledOnce((db, orgId: number) =>
  db
    .selectFrom("api_tokens")
    .leftJoin("users", "users.id", "api_tokens.created_by")
    .selectAll("api_tokens")
    .select("users.name as maker_name")
    .where("api_tokens.org_id", "=", orgId)
    .orderBy("api_tokens.is_primary", "desc")
    .orderBy("api_tokens.created_at", "desc")
    .orderBy("api_tokens.id", "desc"),
);

export async function listTokens(deps: Deps, orgId: number): Promise<ApiToken[]> {
  const rows = await tokensOf(deps.db, orgId);
  const now = deps.now();
  return rows.map(({ maker_name, ...row }) => toApiToken(row, now, { name: maker_name }));
}

/** Made by createOrganization inside its transaction: every organization has exactly one. */
export async function insertPrimaryToken(trx: Transaction<Database>, orgId: number, userId: number | null, now: number): Promise<void> {
  await trx
    .insertInto("api_tokens")
    .values({
      public_id: newPublicId(),
      org_id: orgId,
      secret_hash: hashTokenSecret(newTokenSecret()),
      scopes: JSON.stringify(TOKEN_SCOPES),
      is_primary: 1,
      expires_at: null,
      revoked_at: null,
      last_used_at: null,
      created_by: userId,
      created_at: now,
    })
    .execute();
}

export class RateLimited extends TooManyRequests {
  constructor(retryAfterSeconds: number) {
    super(
      retryAfterSeconds,
      `Too many tokens created: at most ${TOKEN_CREATION_PER_ORG.limit} a minute per organization. Try again in ${retryAfterSeconds} s.`,
    );
  }
}

export async function createToken(deps: Deps, orgId: number, userId: number, input: CreateToken): Promise<CreatedApiToken> {
  const unknown = input.scopes.filter((s) => !(TOKEN_SCOPES as readonly string[]).includes(s));
  // Each refusal names its field (DESIGN §3), as a refused invite's expiry does.
  const refuse = (field: "scopes" | "expiresAt", message: string) => new PlatformError(400, message, { fields: { [field]: message } });
  if (unknown.length > 0) throw refuse("scopes", `Unknown scope: ${unknown.join(", ")}`);
  const now = deps.now();
  if (input.expiresAt !== null && input.expiresAt <= now) throw refuse("expiresAt", "The expiry must be in the future");
  if (input.expiresAt !== null && input.expiresAt > now + MAX_EXPIRY_AHEAD_MS) throw refuse("expiresAt", "The expiry must be at most 10 years ahead");
  // Counted in the database, so every process shares one limit per organization (decision 0083).
  const allowed = await hit(deps, `token-create:org:${orgId}`, TOKEN_CREATION_PER_ORG);
  if (!allowed.ok) throw new RateLimited(allowed.retryAfterSeconds);

  const secret = newTokenSecret();
  const scopes = TOKEN_SCOPES.filter((s) => input.scopes.includes(s));
  // The change and its audit entry in one transaction: a token never exists without its entry.
  return lockedByAdmin(deps, orgId, userId, async (trx) => {
    const row = await trx
      .insertInto("api_tokens")
      .values({
        public_id: newPublicId(),
        org_id: orgId,
        secret_hash: hashTokenSecret(secret),
        scopes: JSON.stringify(scopes),
        is_primary: 0,
        expires_at: input.expiresAt,
        revoked_at: null,
        last_used_at: null,
        created_by: userId,
        created_at: now,
        ...settingsColumns(input),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const created = toApiToken(row, now);
    await record(
      deps,
      {
        orgId,
        action: "token.created",
        target: created.publicId,
        new: { scopes: created.scopes, expiresAt: created.expiresAt, ...auditedSettings(created) },
      },
      trx,
    );
    return { ...created, token: secret };
  });
}

/**
 * Revokes the organization's tokens that `which` picks (one by public id, or every one a user made)
 * among those still usable: never the primary one, never a revoked or expired one. One "token.revoked"
 * entry each, in the caller's transaction, which holds the organization's lock. Returns those revoked.
 */
export async function revokeLiveTokens(
  deps: Pick<Deps, "db" | "now" | "request" | "operator">,
  trx: Transaction<Database>,
  orgId: number,
  which: { publicId: string } | { createdBy: number },
  now = deps.now(),
): Promise<Row[]> {
  const rows = await trx
    .updateTable("api_tokens")
    .set({ revoked_at: now })
    .where("org_id", "=", orgId)
    .where((eb) => ("publicId" in which ? eb("public_id", "=", which.publicId) : eb("created_by", "=", which.createdBy)))
    .where("is_primary", "=", 0)
    .where("revoked_at", "is", null)
    .where((eb) => eb.or([eb("expires_at", "is", null), eb("expires_at", ">", now)]))
    .returningAll()
    .execute();
  for (const row of rows) await record(deps, { orgId, action: "token.revoked", target: row.public_id }, trx);
  return rows;
}

/** Revokes a token of the organization: once, never the primary one, never an expired one. */
export async function revokeToken(deps: Deps, orgId: number, actorId: number, publicId: string): Promise<ApiToken> {
  const now = deps.now();
  const [revoked] = await lockedByAdmin(deps, orgId, actorId, (trx) => revokeLiveTokens(deps, trx, orgId, { publicId }, now));
  if (revoked) return toApiToken(revoked, now);

  const row = await deps.db.selectFrom("api_tokens").selectAll().where("org_id", "=", orgId).where("public_id", "=", publicId).executeTakeFirst();
  if (!row) throw new PlatformError(404, "Token not found");
  if (row.is_primary) throw new PlatformError(409, "The organization token can't be revoked; reset it instead");
  if (row.revoked_at !== null) throw new PlatformError(409, "This token is already revoked");
  throw new PlatformError(409, "This token has expired");
}

/**
 * A new secret for the primary token; the old one is refused from this moment (one UPDATE): a roll
 * with no grace period, which also ends any grace left (SPEC §7: "invalidated immediately"). Admins only,
 * checked again in the transaction.
 */
export async function resetPrimaryToken(deps: Deps, orgId: number, actorId: number, version?: string): Promise<CreatedApiToken> {
  const secret = newTokenSecret();
  const row = await lockedByAdmin(deps, orgId, actorId, async (trx) => {
    if (version !== undefined) {
      const primary = await trx.selectFrom("api_tokens").selectAll().where("org_id", "=", orgId).where("is_primary", "=", 1).executeTakeFirst();
      if (primary) refuseChangedSince(primary, version);
    }
    const reset = await trx
      .updateTable("api_tokens")
      .set({ secret_hash: hashTokenSecret(secret), last_used_at: null, previous_secret_hash: null, previous_secret_expires_at: null, rolled_at: deps.now() })
      .where("org_id", "=", orgId)
      .where("is_primary", "=", 1)
      .returningAll()
      .executeTakeFirst();
    if (!reset) throw new PlatformError(404, "This organization has no primary token");
    await record(deps, { orgId, action: "organization.token_reset", target: reset.public_id }, trx);
    return reset;
  });
  return { ...toApiToken(row, deps.now()), token: secret };
}

/**
 * POST /tokens/{publicId}/roll (admins, issue 16): a new secret for the same token (id, scopes,
 * settings, spend and usage all stay), the old one accepted until the grace period ends. Rolling again
 * during a grace period ends the earlier secret's grace at once: only the last two secrets ever work.
 * The primary token is reset instead (no grace), revoked and expired tokens can't be rolled.
 */
export async function rollToken(deps: Deps, orgId: number, actorId: number, publicId: string, grace: RollGrace, version?: string): Promise<CreatedApiToken> {
  const now = deps.now();
  const secret = newTokenSecret();
  const graceUntil = ROLL_GRACE_MS[grace] > 0 ? now + ROLL_GRACE_MS[grace] : null;
  return lockedByAdmin(deps, orgId, actorId, async (trx) => {
    const row = await trx.selectFrom("api_tokens").selectAll().where("org_id", "=", orgId).where("public_id", "=", publicId).executeTakeFirst();
    if (!row) throw new PlatformError(404, "Token not found");
    if (row.is_primary) throw new PlatformError(409, "The organization token can't be rolled; reset it instead");
    if (row.revoked_at !== null) throw new PlatformError(409, "This token is revoked");
    if (row.expires_at !== null && row.expires_at <= now) throw new PlatformError(409, "This token has expired");
    refuseChangedSince(row, version);
    const rolled = await trx
      .updateTable("api_tokens")
      .set({
        secret_hash: hashTokenSecret(secret),
        previous_secret_hash: graceUntil === null ? null : row.secret_hash,
        previous_secret_expires_at: graceUntil,
        rolled_at: now,
      })
      .where("id", "=", row.id)
      // The secret read above is the one moved aside: a concurrent roll makes this one a 409, not a lost secret.
      .where("secret_hash", "=", row.secret_hash)
      .returningAll()
      .executeTakeFirst();
    if (!rolled) throw new PlatformError(409, "This token was rolled at the same moment; reload and try again");
    await record(
      deps,
      { orgId, action: "token.rolled", target: publicId, new: { grace, oldSecretValidUntil: graceUntil && new Date(graceUntil).toISOString() } },
      trx,
    );
    return { ...toApiToken(rolled, now), token: secret };
  });
}

/**
 * The token's own requests-per-minute limit, when it has one, counted in the database (shared by all
 * processes): null for a token without one.
 */
export async function tokenRateLimit(deps: Deps, tokenId: number, rpm: number | null): Promise<TokenRateLimit | null> {
  if (rpm === null || rpm <= 0) return null;
  const verdict = await hit(deps, `token-rpm:${tokenId}`, { limit: rpm, windowMs: 60_000 });
  return { ok: verdict.ok, limit: rpm, remaining: Math.max(0, rpm - verdict.count), resetSeconds: verdict.resetSeconds };
}

/** Where a token with a requests-per-minute limit stands after this call was counted. */
export interface TokenRateLimit {
  ok: boolean;
  limit: number;
  remaining: number;
  resetSeconds: number;
}

const tokenBySecretHash = compiledOnce((db, hash: string) => db.selectFrom("api_tokens").selectAll().where("secret_hash", "=", hash));
/** A rolled token's previous secret, while its grace lasts (asked only when the current secrets don't match). */
const tokenByPreviousSecretHash = compiledOnce((db, hash: string, now: number) =>
  db.selectFrom("api_tokens").selectAll().where("previous_secret_hash", "=", hash).where("previous_secret_expires_at", ">", now),
);

export type ApiTokenAuth =
  | {
      ok: true;
      orgId: number;
      tokenId: number;
      scopes: string[];
      rateLimitRpm: number | null;
      allowedModels: string[] | null;
      /** Whether the token had a spend budget when it was authenticated (admission then holds against it). */
      budgeted: boolean;
      /** The hash of the secret it was authenticated with: a long stream asks whether that secret still works. */
      secretHash: string;
    }
  | { ok: false; status: 401 | 403; error: string };

/**
 * Whether a token authenticated earlier with this secret may still be used (a long stream asks again):
 * not revoked, not expired, and the secret still its own, the current one or a rolled one in its grace.
 * A reset or a roll without grace invalidates the old secret at once (SPEC §7), running streams included.
 */
export async function apiTokenUsable(deps: Deps, tokenId: number, secretHash: string): Promise<boolean> {
  const row = await deps.db
    .selectFrom("api_tokens")
    .select(["revoked_at", "expires_at", "secret_hash", "previous_secret_hash", "previous_secret_expires_at"])
    .where("id", "=", tokenId)
    .executeTakeFirst();
  if (!row || row.revoked_at !== null) return false;
  const now = deps.now();
  if (row.expires_at !== null && row.expires_at <= now) return false;
  return row.secret_hash === secretHash || (row.previous_secret_hash === secretHash && (row.previous_secret_expires_at ?? 0) > now);
}

/** lastUsedAt is written at most this often per token: a write per call would cost every call a commit. */
export const LAST_USED_GRANULARITY_MS = 60_000;

const touchLastUsed = compiledOnce((db, now: number, tokenId: number, notSince: number) =>
  db
    .updateTable("api_tokens")
    .set({ last_used_at: now })
    .where("id", "=", tokenId)
    .where((eb) => eb.or([eb("last_used_at", "is", null), eb("last_used_at", "<=", notSince)])),
);

/**
 * Checks `Authorization: Bearer sk-…`: unknown, revoked or expired → 401; missing scope → 403.
 * On success records lastUsedAt, at most once a minute (LAST_USED_GRANULARITY_MS) per token. The row is
 * read on every call, never cached: a revocation refuses the very next call, in every process.
 */
export async function authenticateApiToken(deps: Deps, authorization: string | undefined, requiredScope: string): Promise<ApiTokenAuth> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
  if (!match) return { ok: false, status: 401, error: "Missing API token: send the header Authorization: Bearer sk-…" };
  const secret = match[1];
  if (!secret.startsWith("sk-")) return { ok: false, status: 401, error: "Invalid API token" };
  const hash = hashTokenSecret(secret);
  const now = deps.now();
  let [row] = await tokenBySecretHash(deps.db, hash);
  // Only a miss asks again, so the current secret's path stays one query.
  row ??= (await tokenByPreviousSecretHash(deps.db, hash, now))[0];
  if (!row) return { ok: false, status: 401, error: "Invalid API token" };
  if (row.revoked_at !== null) return { ok: false, status: 401, error: "This API token has been revoked" };
  if (row.expires_at !== null && row.expires_at <= now) return { ok: false, status: 401, error: "This API token has expired" };
  const { scopes } = toApiToken(row);
  if (!scopes.includes(requiredScope)) return { ok: false, status: 403, error: `This API token does not have the '${requiredScope}' scope` };
  const notSince = now - LAST_USED_GRANULARITY_MS;
  if (row.last_used_at === null || row.last_used_at <= notSince) await touchLastUsed(deps.db, now, row.id, notSince);
  return {
    ok: true,
    orgId: row.org_id,
    tokenId: row.id,
    scopes,
    rateLimitRpm: row.rate_limit_rpm ?? null,
    allowedModels: allowedModelsOf(row),
    budgeted: row.budget_micros !== null,
    secretHash: hash,
  };
}
