import type { Transaction } from "kysely";
import type { ApiToken, CreatedApiToken, CreateToken, TokenSettings } from "@contract/tokens";
import { TOKEN_SCOPES } from "@contract/tokens";
import type { Deps } from "../context";
import type { ApiTokensTable, Database } from "../db/schema";
import type { Selectable } from "kysely";
import { PlatformError } from "../http/errors";
import { TooManyRequests } from "../ratelimit/limits";
import { hit } from "../ratelimit/store";
import { hashTokenSecret, newPublicId, newTokenSecret } from "./secret";
import { compiledOnce } from "../db/compiled";
import { dollarsToMicros, microsToDollars } from "../billing/money";
import { monthKey } from "../spend/reservations";

/** Token creation per organization: at most this many in any window (decision 0010). */
export const TOKEN_CREATION_LIMIT = 20;
export const TOKEN_CREATION_WINDOW_MS = 60_000;
/** The latest expiry a token can have (decision 0083): ten years of 365.25 days. */
export const MAX_EXPIRY_AHEAD_MS = 10 * 365.25 * 24 * 3600 * 1000;

type Row = Selectable<ApiTokensTable>;

export function allowedModelsOf(row: Pick<Row, "allowed_models">): string[] | null {
  return row.allowed_models === null ? null : (JSON.parse(row.allowed_models) as string[]);
}

function toApiToken(row: Row, now = Date.now()): ApiToken {
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
export async function updateTokenSettings(deps: Deps, orgId: number, publicId: string, input: TokenSettings): Promise<ApiToken> {
  const row = await deps.db
    .updateTable("api_tokens")
    .set(settingsColumns(input))
    .where("org_id", "=", orgId)
    .where("public_id", "=", publicId)
    .returningAll()
    .executeTakeFirst();
  if (!row) throw new PlatformError(404, "Token not found");
  return toApiToken(row, deps.now());
}

export async function listTokens(deps: Deps, orgId: number): Promise<ApiToken[]> {
  const rows = await deps.db
    .selectFrom("api_tokens")
    .selectAll()
    .where("org_id", "=", orgId)
    .orderBy("is_primary", "desc")
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .execute();
  const now = deps.now();
  return rows.map((row) => toApiToken(row, now));
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
    super(retryAfterSeconds, `Too many tokens created: at most ${TOKEN_CREATION_LIMIT} a minute per organization. Try again in ${retryAfterSeconds} s.`);
  }
}

export async function createToken(deps: Deps, orgId: number, userId: number, input: CreateToken): Promise<CreatedApiToken> {
  const unknown = input.scopes.filter((s) => !(TOKEN_SCOPES as readonly string[]).includes(s));
  if (unknown.length > 0) throw new PlatformError(400, `Unknown scope: ${unknown.join(", ")}`);
  const now = deps.now();
  if (input.expiresAt !== null && input.expiresAt <= now) throw new PlatformError(400, "The expiry must be in the future");
  if (input.expiresAt !== null && input.expiresAt > now + MAX_EXPIRY_AHEAD_MS) throw new PlatformError(400, "The expiry must be at most 10 years ahead");
  // Counted in the database, so every process shares one limit per organization (decision 0083).
  const allowed = await hit(deps, `token-create:org:${orgId}`, { limit: TOKEN_CREATION_LIMIT, windowMs: TOKEN_CREATION_WINDOW_MS });
  if (!allowed.ok) throw new RateLimited(allowed.retryAfterSeconds);

  const secret = newTokenSecret();
  const scopes = TOKEN_SCOPES.filter((s) => input.scopes.includes(s));
  const row = await deps.db
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
  return { ...toApiToken(row, now), token: secret };
}

/** Revokes a token of the organization: once, never the primary one, never an expired one. */
export async function revokeToken(deps: Deps, orgId: number, publicId: string): Promise<ApiToken> {
  const now = deps.now();
  const revoked = await deps.db
    .updateTable("api_tokens")
    .set({ revoked_at: now })
    .where("org_id", "=", orgId)
    .where("public_id", "=", publicId)
    .where("is_primary", "=", 0)
    .where("revoked_at", "is", null)
    .where((eb) => eb.or([eb("expires_at", "is", null), eb("expires_at", ">", now)]))
    .returningAll()
    .executeTakeFirst();
  if (revoked) return toApiToken(revoked);

  const row = await deps.db.selectFrom("api_tokens").selectAll().where("org_id", "=", orgId).where("public_id", "=", publicId).executeTakeFirst();
  if (!row) throw new PlatformError(404, "Token not found");
  if (row.is_primary) throw new PlatformError(409, "The organization token can't be revoked; reset it instead");
  if (row.revoked_at !== null) throw new PlatformError(409, "This token is already revoked");
  throw new PlatformError(409, "This token has expired");
}

/** A new secret for the primary token; the old one is refused from this moment (one UPDATE). */
export async function resetPrimaryToken(deps: Deps, orgId: number): Promise<CreatedApiToken> {
  const secret = newTokenSecret();
  const row = await deps.db
    .updateTable("api_tokens")
    .set({ secret_hash: hashTokenSecret(secret), last_used_at: null })
    .where("org_id", "=", orgId)
    .where("is_primary", "=", 1)
    .returningAll()
    .executeTakeFirst();
  if (!row) throw new PlatformError(404, "This organization has no primary token");
  return { ...toApiToken(row), token: secret };
}

/**
 * The token's own requests-per-minute limit, when it has one, counted in the database (shared by all
 * processes): seconds to wait, or null when the request may go on.
 */
export async function tokenRateLimitWait(deps: Deps, tokenId: number, rpm: number | null): Promise<number | null> {
  if (rpm === null || rpm <= 0) return null;
  const verdict = await hit(deps, `token-rpm:${tokenId}`, { limit: rpm, windowMs: 60_000 });
  return verdict.ok ? null : verdict.retryAfterSeconds;
}

const tokenBySecretHash = compiledOnce((db, hash: string) => db.selectFrom("api_tokens").selectAll().where("secret_hash", "=", hash));

export type ApiTokenAuth =
  | { ok: true; orgId: number; tokenId: number; scopes: string[]; rateLimitRpm: number | null; allowedModels: string[] | null }
  | { ok: false; status: 401 | 403; error: string };

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
  const [row] = await tokenBySecretHash(deps.db, hashTokenSecret(secret));
  if (!row) return { ok: false, status: 401, error: "Invalid API token" };
  if (row.revoked_at !== null) return { ok: false, status: 401, error: "This API token has been revoked" };
  const now = deps.now();
  if (row.expires_at !== null && row.expires_at <= now) return { ok: false, status: 401, error: "This API token has expired" };
  const { scopes } = toApiToken(row);
  if (!scopes.includes(requiredScope)) return { ok: false, status: 403, error: `This API token does not have the '${requiredScope}' scope` };
  const notSince = now - LAST_USED_GRANULARITY_MS;
  if (row.last_used_at === null || row.last_used_at <= notSince) await touchLastUsed(deps.db, now, row.id, notSince);
  return { ok: true, orgId: row.org_id, tokenId: row.id, scopes, rateLimitRpm: row.rate_limit_rpm ?? null, allowedModels: allowedModelsOf(row) };
}
