import type { ColumnType, Generated, Selectable } from "kysely";
import type { PaymentMode } from "@contract/billing";
import type { InviteKind } from "@contract/orgs";
import type { ModelStatusOverride } from "@contract/models";
import type { Role } from "@contract/team";

export type { InviteKind, ModelStatusOverride, PaymentMode, Role };

/**
 * Tables of the embedded platform. Times are epoch milliseconds; money is integer micro-dollars.
 * Later modules add their tables here, next to the migration that creates them.
 */
export interface Database {
  users: UsersTable;
  oauth_accounts: OAuthAccountsTable;
  sessions: SessionsTable;
  organizations: OrganizationsTable;
  memberships: MembershipsTable;
  invites: InvitesTable;
  dev_auth_codes: DevAuthCodesTable;
  billing_accounts: BillingAccountsTable;
  ledger_entries: LedgerEntriesTable;
  stripe_events: StripeEventsTable;
  api_tokens: ApiTokensTable;
  models: ModelsTable;
  chat_usage: ChatUsageTable;
  spend_reservations: SpendReservationsTable;
  payment_intents: PaymentIntentsTable;
  rate_limit_buckets: RateLimitBucketsTable;
  oauth_states: OAuthStatesTable;
  model_minute_stats: ModelMinuteStatsTable;
  model_status_history: ModelStatusHistoryTable;
  usage_hourly: UsageHourlyTable;
  usage_daily: UsageDailyTable;
  usage_rollup_state: UsageRollupStateTable;
  audit_log: AuditLogTable;
  models_file_applied: ModelsFileAppliedTable;
}

export interface UsersTable {
  id: Generated<number>;
  name: string;
  email: string;
  email_verified: number;
  created_at: number;
  /** The organization the user last made active: where a new session starts (membership still checked). */
  last_active_org_id: ColumnType<number | null, number | null | undefined, number | null>;
  /** userSearchText(name, email), written with every name and email: what /team's search matches. */
  search_text: ColumnType<string, string | undefined, string>;
}

export interface OAuthAccountsTable {
  provider: string;
  subject: string;
  user_id: number;
  created_at: number;
}

export interface SessionsTable {
  /** SHA-256 of the cookie's random id: a leaked table signs nobody in. */
  id_hash: string;
  user_id: number;
  active_org_id: number | null;
  expires_at: number;
  created_at: number;
}

export interface OrganizationsTable {
  id: Generated<number>;
  name: string;
  /** foldForSearch(name), written with every name: what the Org Editor's search matches. */
  name_search: string;
  created_at: number;
}

export interface MembershipsTable {
  org_id: number;
  user_id: number;
  role: Role;
  created_at: number;
}

export interface InvitesTable {
  id: Generated<number>;
  code: string;
  org_id: number;
  kind: InviteKind;
  created_by: number;
  created_at: number;
  used_at: number | null;
  use_count: number;
  /** Epoch ms; null: never expires. */
  expires_at: number | null;
  /** null: any number of uses (a multi-use code without a limit); single-use codes hold 1. */
  max_uses: number | null;
  revoked_at: number | null;
}

export interface DevAuthCodesTable {
  code_hash: string;
  provider: string;
  name: string;
  email: string;
  redirect_uri: string;
  code_challenge: string;
  expires_at: number;
  used_at: number | null;
}

export type User = Selectable<UsersTable>;
export type Organization = Selectable<OrganizationsTable>;

/** One per organization (created with it): the kept balance, the payment mode and the Stripe ids. */
export interface BillingAccountsTable {
  org_id: number;
  balance_micros: Generated<number>;
  payment_mode: Generated<PaymentMode>;
  auto_enabled: Generated<number>;
  auto_threshold_micros: number | null;
  auto_recharge_micros: number | null;
  /** When an auto-recharge was claimed (null: none running); the claim makes racing debits charge once. */
  recharge_claimed_at: number | null;
  stripe_customer_id: string | null;
  payment_method_id: string | null;
  payment_method_brand: string | null;
  payment_method_last4: string | null;
  /** The card last removed or replaced: a late webhook for it is not recorded (decision 0121). */
  removed_payment_method_id: string | null;
  updated_at: number;
  /** The sum of the organization's open spend reservations (issue 11). */
  reserved_micros: Generated<number>;
  /** An optional cap on what the organization may spend per calendar month (UTC). */
  monthly_cap_micros: number | null;
  /** The UTC month ('YYYY-MM') that `month_spent_micros` counts. */
  month_key: string | null;
  month_spent_micros: Generated<number>;
  /** At most this many automatic recharges in any 24 hours. */
  recharges_per_day: Generated<number>;
  recharge_refused_at: number | null;
  recharge_refused_reason: string | null;
}

export interface LedgerEntriesTable {
  id: Generated<number>;
  org_id: number;
  created_at: number;
  description: string;
  model: string | null;
  rate_card_id: string | null;
  /** Signed micro-dollars: credits positive, usage negative. */
  change_micros: number;
  /**
   * What makes a payment's row unique (so a webhook and the synchronous answer credit once): the
   * payment intent for a credit; for a refund or a chargeback, its Stripe source (billing/reversals.ts).
   */
  payment_intent_id: string | null;
}

/** Stripe events already handled (each is handled once). */
export interface StripeEventsTable {
  id: string;
  type: string;
  received_at: number;
}

/** An API token (issue 3). `scopes` is a JSON array; only the SHA-256 of the secret is stored. */
export interface ApiTokensTable {
  id: Generated<number>;
  public_id: string;
  org_id: number;
  secret_hash: string;
  scopes: string;
  /** 1 for the organization's primary token: made with it, never revoked, only reset. */
  is_primary: number;
  expires_at: number | null;
  revoked_at: number | null;
  last_used_at: number | null;
  created_by: number | null;
  created_at: number;
  /** An optional spend limit: all-time ('total') or per calendar month, UTC ('month'). */
  budget_micros: number | null;
  budget_period: "total" | "month" | null;
  spent_micros: Generated<number>;
  month_key: string | null;
  month_spent_micros: Generated<number>;
  /** The sum of the token's open spend reservations. */
  reserved_micros: Generated<number>;
  /** JSON array of the model names the token may call; null: every model. */
  allowed_models: string | null;
  /** Requests per minute on /openai/v1; null: no limit. */
  rate_limit_rpm: number | null;
  /** After a roll (issue 16): the old secret's hash, accepted until `previous_secret_expires_at`. */
  previous_secret_hash: string | null;
  previous_secret_expires_at: number | null;
  rolled_at: number | null;
}

/** The audit log (issue 16): append-only, no foreign keys; values are JSON, never secrets. */
export interface AuditLogTable {
  id: Generated<number>;
  /** null for an event of no organization (a sign-in of a user without one). */
  org_id: number | null;
  actor_id: number | null;
  actor_name: string | null;
  actor_email: string | null;
  /** 1 or 0: whether the provider had proved actor_email; null for no user's entry, and before 0023. */
  actor_email_verified: ColumnType<number | null, number | null | undefined, never>;
  action: string;
  target: string | null;
  old_value: string | null;
  new_value: string | null;
  address: string | null;
  created_at: number;
}

export interface ModelsTable {
  name: string;
  display_name: string;
  /** "builtin" answers in-process; anything else is an OpenAI-compatible upstream. */
  provider: string;
  context_size: number;
  base_url: string | null;
  /** Never leaves the platform. */
  api_key: string | null;
  upstream_model: string;
  rate_card_id: string | null;
  input_micros_per_million: number;
  output_micros_per_million: number;
  status_override: ModelStatusOverride | null;
  /** Alert thresholds over the last 15 minutes (null: no alert) and whether platform-wide figures are shown to every organization. */
  alert_error_rate_pct: number | null;
  alert_ttft_ms: number | null;
  publish_metrics: Generated<number>;
  position: number;
  created_at: number;
  /** The output cap a request without max_tokens is reserved for (bounded by context_size); null: the context size. */
  default_max_tokens: number | null;
}

export interface ChatUsageTable {
  id: Generated<number>;
  receipt_id: string;
  org_id: number;
  user_id: number | null;
  token_id: number | null;
  model: string;
  rate_card_id: string | null;
  prompt_tokens: number;
  completion_tokens: number;
  reasoning_tokens: number;
  cost_micros: number;
  /** 1 when the tokens were counted here because the upstream sent no usage. */
  estimated: number;
  outcome: "completed" | "stopped" | "failed";
  created_at: number;
}

export type ModelRow = Selectable<ModelsTable>;

/** Worst-case cost held for one priced request from admission until it is settled or expires. */
export interface SpendReservationsTable {
  id: Generated<number>;
  org_id: number;
  token_id: number | null;
  receipt_id: string;
  amount_micros: number;
  created_at: number;
  expires_at: number;
  /** A stream's charge for what it had sent by its last recheck (JSON), billed if its process dies; null otherwise. */
  progress: string | null;
}

/** A charge recorded before the payment provider is called, so a crash between charge and credit loses nothing. */
export interface PaymentIntentsTable {
  id: Generated<number>;
  org_id: number;
  kind: "add_funds" | "auto_recharge";
  amount_micros: number;
  idempotency_key: string;
  provider_intent_id: string | null;
  status: "pending" | "succeeded" | "failed" | "credited";
  created_at: number;
  updated_at: number;
  /** Who asked (add funds); null for an automatic recharge. */
  user_id: ColumnType<number | null, number | null | undefined, number | null>;
}

/** Fixed-window counters shared by every process (sign-in, invite joins, token creation, API requests). */
export interface RateLimitBucketsTable {
  key: string;
  window_start: number;
  count: number;
  expires_at: number;
}

/** OAuth states issued and not yet used: a state is consumed at its callback, once. */
export interface OAuthStatesTable {
  state_hash: string;
  expires_at: number;
}

/** Counters of one model's requests for one organization in one minute (epoch ms of its start), summed by every process. */
export interface ModelMinuteStatsTable {
  model: string;
  org_id: number;
  minute: number;
  requests: number;
  successes: number;
  upstream_errors: number;
  rate_limited: number;
  unavailable: number;
  aborted: number;
  ttft_count: number;
  ttft_sum_ms: number;
  output_tokens: number;
  /** Milliseconds from the first token to the end, over which output_tokens were generated. */
  generation_ms: number;
  duration_ms: number;
  ttft_b0: number;
  ttft_b1: number;
  ttft_b2: number;
  ttft_b3: number;
  ttft_b4: number;
  ttft_b5: number;
  ttft_b6: number;
  ttft_b7: number;
  ttft_b8: number;
  ttft_b9: number;
  ttft_b10: number;
  ttft_b11: number;
  ttft_b12: number;
  ttft_b13: number;
}

/** A model's status from the time it was recorded: a probe result that changed it, or an operator override. */
export interface ModelStatusHistoryTable {
  id: Generated<number>;
  model: string;
  status: string;
  source: "probe" | "override";
  at: number;
}

/** The sums every usage rollup keeps (platform/usage/rollup.ts, SUM_COLUMNS). */
interface UsageSums {
  requests: number;
  prompt_tokens: number;
  completion_tokens: number;
  reasoning_tokens: number;
  cost_micros: number;
}

/** Sums of `chat_usage` per closed hour (migration 0009); `token_key`/`user_key` 0 for none. */
export interface UsageHourlyTable extends UsageSums {
  org_id: number;
  hour: number;
  model: string;
  token_key: number;
  user_key: number;
}

/**
 * Sums of `usage_hourly` per UTC day (`day`: its midnight) whose hours are all rolled up (migration 0013), at
 * four levels: per model × token × member (0), per model (1), per token × member (2), per day (3).
 */
export interface UsageDailyTable extends UsageSums {
  org_id: number;
  level: 0 | 1 | 2 | 3;
  day: number;
  model: string;
  token_key: number;
  user_key: number;
}

/**
 * Usage before `days_until` (a UTC midnight, NULL until first rolled) is in `usage_daily`, before `rolled_until`
 * (a minute boundary: the hour's row holds its hour up to it) in `usage_hourly`, from `rolled_until` on in
 * `chat_usage` only.
 */
export interface UsageRollupStateTable {
  org_id: number;
  rolled_until: number;
  days_until: number | null;
}

/** The MODELS_FILE entry last applied to each model name, as a hash (platform/models/service.ts). */
export interface ModelsFileAppliedTable {
  name: string;
  entry_hash: string;
  applied_at: number;
}
