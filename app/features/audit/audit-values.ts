import { exactDollars, formatMoney } from "@contract/money";
import { ROLL_GRACE_LABELS } from "@contract/token-rotation";
import type { RollGrace } from "@contract/token-rotation";
import { describeCard } from "~/features/billing/format";
import { formatContextSize } from "~/features/models/status";
import { rateText } from "~/features/tokens/spend-text";
import { formatDateTime } from "~/lib/datetime";

/** One field of an entry's value as a person reads it: `Budget` `$5.00 a month`. */
export interface AuditValueLine {
  label: string;
  text: string;
}

/** A field's text, or null to leave the field out (where "none" would read wrong). */
type Text = (value: unknown, timeZone: string) => string | null;

const count = new Intl.NumberFormat("en-US", { maximumFractionDigits: 6 });

const isNumber = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
const isString = (v: unknown): v is string => typeof v === "string";
const isBoolean = (v: unknown): v is boolean => typeof v === "boolean";
const isList = (v: unknown): v is unknown[] => Array.isArray(v);
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
/** Epoch milliseconds (`expiresAt`) or ISO 8601 (`oldSecretValidUntil`), as the platform records them. */
const isInstant = (v: unknown): v is number | string => (isNumber(v) || isString(v)) && formatDateTime(v, "UTC") !== "";

/**
 * A field of a known kind: its own text for a value of that kind, `none` for null (null: left out),
 * and the generic text for anything else, so an entry recorded in an older shape still reads.
 */
function known<T>(is: (v: unknown) => v is T, text: (v: T, timeZone: string) => string, none: string | null = "none"): Text {
  return (value, timeZone) => (value === null || value === undefined ? none : is(value) ? text(value, timeZone) : plain(value, timeZone));
}

const words = known(isString, (v) => v);
const money = (none?: string) => known(isNumber, formatMoney, none);
const date = (none: string | null) => known(isInstant, formatDateTime, none);
const list = (none: string) => known(isList, (items, timeZone) => (items.length ? items.map((item) => plain(item, timeZone)).join(", ") : "none"), none);
const yesNo = known(isBoolean, (v) => (v ? "yes" : "no"));

const budget = known(
  (v): v is { amount: number; period: string } => isRecord(v) && isNumber(v.amount) && isString(v.period),
  (b) => `${formatMoney(b.amount)} ${b.period === "month" ? "a month" : "in total"}`,
  "no limit",
);
const autoPayment = known(
  (v): v is { thresholdAmount: number; rechargeAmount: number } => isRecord(v) && isNumber(v.thresholdAmount) && isNumber(v.rechargeAmount),
  (c) => `recharge ${formatMoney(c.rechargeAmount)} below ${formatMoney(c.thresholdAmount)}`,
  "off",
);
const card = known(
  (v): v is { brand: string | null; last4: string | null } => isRecord(v) && (v.brand === null || isString(v.brand)) && (v.last4 === null || isString(v.last4)),
  describeCard,
);
const grace = known(isString, (v) => (v !== "none" && Object.hasOwn(ROLL_GRACE_LABELS, v) ? ROLL_GRACE_LABELS[v as RollGrace] : v));
const perMillion = known(isNumber, (v) => `${exactDollars(v)} per million tokens`);

/**
 * Every field the platform writes into an entry's old or new value (platform/: `record(` and
 * `recordChange(`), with its label and its kind. A field added there reads generically until it is
 * named here.
 */
const FIELDS: Record<string, { label: string; text: Text }> = {
  // Members, invites, sign-ins, organizations
  role: { label: "Role", text: words },
  via: { label: "Via", text: words },
  invite: { label: "Invite", text: words },
  kind: { label: "Kind", text: words },
  maxUses: { label: "Max uses", text: known(isNumber, (v) => count.format(v), "no limit") },
  expiresAt: { label: "Expires", text: date("never") },
  name: { label: "Name", text: words },
  provider: { label: "Provider", text: words },
  // Tokens
  scopes: { label: "Scopes", text: list("none") },
  budget: { label: "Budget", text: budget },
  allowedModels: { label: "Allowed models", text: list("all models") },
  rateLimitRpm: { label: "Rate limit", text: known(isNumber, (v) => rateText(v) ?? "", "no limit") },
  grace: { label: "Grace period", text: grace },
  oldSecretValidUntil: { label: "Old secret works until", text: date(null) },
  // Billing
  paymentMode: { label: "Payment mode", text: words },
  autoPaymentConfig: { label: "Auto-payment", text: autoPayment },
  monthlyCap: { label: "Monthly spending cap", text: money("no cap") },
  amount: { label: "Amount", text: money() },
  description: { label: "Description", text: words },
  reason: { label: "Reason", text: words },
  card: { label: "Card", text: card },
  // Models
  displayName: { label: "Display name", text: words },
  baseUrl: { label: "Base URL", text: words },
  rateCardId: { label: "Rate card", text: words },
  inputPerMillion: { label: "Input price", text: perMillion },
  outputPerMillion: { label: "Output price", text: perMillion },
  statusOverride: { label: "Status override", text: words },
  contextSize: { label: "Context size", text: known(isNumber, (v) => `${formatContextSize(v)} tokens`) },
  upstreamModel: { label: "Upstream model", text: known(isString, (v) => v, "same as the name") },
  defaultMaxTokens: { label: "Default max tokens", text: known(isNumber, (v) => count.format(v), "the context size") },
  alertErrorRatePct: { label: "Alert above error rate", text: known(isNumber, (v) => `${count.format(v)}%`, "no alert") },
  alertTtftMs: { label: "Alert above time to first token", text: known(isNumber, (v) => `${count.format(v)} ms`, "no alert") },
  publishMetrics: { label: "Publish platform-wide figures", text: yesNo },
  apiKeyChanged: { label: "API key changed", text: yesNo },
  models: { label: "Models", text: list("none") },
};

/** Fields of no known name that hold an instant (`…At`, `…Until`): shown as dates all the same. */
const INSTANT_KEY = /(At|Until)$/;

/** `rateLimitRpm` → "rate limit rpm". */
function spaced(key: string): string {
  return key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_-]+/g, " ")
    .toLowerCase()
    .trim();
}

function unknownField(key: string, value: unknown, timeZone: string): string {
  return INSTANT_KEY.test(key) && isInstant(value) ? formatDateTime(value, timeZone) : plain(value, timeZone);
}

/** Any value in words: never JSON's quotes or braces (an object is "key value" pairs). */
function plain(value: unknown, timeZone: string): string {
  if (value === null || value === undefined) return "none";
  if (isBoolean(value)) return value ? "yes" : "no";
  if (isNumber(value)) return count.format(value);
  if (isList(value)) return value.length ? value.map((item) => plain(item, timeZone)).join(", ") : "none";
  if (isRecord(value)) {
    const pairs = Object.entries(value).map(([key, v]) => `${spaced(key)} ${unknownField(key, v, timeZone)}`);
    return pairs.length ? pairs.join(", ") : "none";
  }
  return String(value);
}

/**
 * An entry's old or new value as the page shows it, one line a field: labels in words, money in
 * dollars, instants as dates in the viewer's time zone (SPEC §9), lists joined. Nothing for no value.
 * The CSV export keeps the values as recorded (decision 0089).
 */
export function auditValueLines(value: unknown, timeZone: string): AuditValueLine[] {
  if (value === null || value === undefined) return [];
  if (!isRecord(value)) return [{ label: "Value", text: plain(value, timeZone) }];
  // A card is recorded as its brand and last 4 digits: one line, as /billing names it.
  const { brand, last4, ...rest } = value;
  const fields = "last4" in value ? { card: { brand: brand ?? null, last4: last4 ?? null }, ...rest } : value;
  return Object.entries(fields).flatMap(([key, v]) => {
    // Own names only: a recorded `constructor` is a field of no known name, not Object's.
    const field = Object.hasOwn(FIELDS, key) ? FIELDS[key] : undefined;
    const text = field ? field.text(v, timeZone) : unknownField(key, v, timeZone);
    if (text === null) return [];
    const label = field?.label ?? spaced(key).replace(/^./, (c) => c.toUpperCase());
    return [{ label, text }];
  });
}
