/** The rules of SPEC §4, §5 and §9 for API tokens, as pure functions. */

export const DAY_MS = 86_400_000;
/** The 'expiring soon' window, on both sides of the expiry (SPEC §9). */
export const EXPIRY_WARNING_WINDOW_MS = 7 * DAY_MS;

export interface TokenLike {
  publicId: string;
  expiresAt: number | null;
  revoked: boolean;
  createdAt: number;
  primary?: boolean;
}

export type TokenStatus = "active" | "expired" | "revoked";

/** Revoked if revoked, else expired if expiresAt is in the past, else active (SPEC §4). */
export function tokenStatus(token: Pick<TokenLike, "expiresAt" | "revoked">, now: number): TokenStatus {
  if (token.revoked) return "revoked";
  if (token.expiresAt !== null && token.expiresAt <= now) return "expired";
  return "active";
}

/** A non-revoked token expiring within 7 days or expired within the last 7 days gets the warning icon. */
export function hasExpiryWarning(token: Pick<TokenLike, "expiresAt" | "revoked">, now: number): boolean {
  if (token.revoked || token.expiresAt === null) return false;
  return Math.abs(token.expiresAt - now) <= EXPIRY_WARNING_WINDOW_MS;
}

/** Why the warning shows, in words for the icon's label. */
export function expiryWarningText(token: Pick<TokenLike, "expiresAt" | "revoked">, now: number): string | null {
  if (!hasExpiryWarning(token, now)) return null;
  return tokenStatus(token, now) === "expired" ? "Expired within the last 7 days" : "Expires within 7 days";
}

/**
 * List order, exactly SPEC §4: non-revoked tokens expiring or recently expired within 7 days (soonest
 * expiry first), then other active tokens, then revoked ones, then the rest (expired longer ago). The
 * primary token takes no place of its own: it sorts by its status like any other, and only leads its
 * group among equals (issue 3 wants it easy to find, SPEC's order comes first). Newest first within
 * each of the last three groups.
 */
export function sortTokens<T extends TokenLike>(tokens: readonly T[], now: number): T[] {
  const rank = (t: T) => {
    if (hasExpiryWarning(t, now)) return 1;
    const status = tokenStatus(t, now);
    if (status === "active") return 2;
    if (status === "revoked") return 3;
    return 4;
  };
  return [...tokens].sort((a, b) => {
    const byRank = rank(a) - rank(b);
    if (byRank !== 0) return byRank;
    if (rank(a) === 1) return (a.expiresAt ?? 0) - (b.expiresAt ?? 0) || a.publicId.localeCompare(b.publicId);
    const byPrimary = Number(Boolean(b.primary)) - Number(Boolean(a.primary));
    return byPrimary || b.createdAt - a.createdAt || a.publicId.localeCompare(b.publicId);
  });
}

export const EXPIRY_CHOICES = [
  { value: "1", label: "1 day", days: 1 },
  { value: "7", label: "7 days", days: 7 },
  { value: "30", label: "30 days", days: 30 },
  { value: "never", label: "Never", days: null },
] as const;

export type ExpiryChoice = (typeof EXPIRY_CHOICES)[number]["value"];
export const DEFAULT_EXPIRY: ExpiryChoice = "30";

export function isExpiryChoice(value: unknown): value is ExpiryChoice {
  return EXPIRY_CHOICES.some((c) => c.value === value);
}

/** The wire value of an expiry choice: epoch milliseconds from `now`, or null for never (SPEC §3). */
export function expiresAtFor(choice: ExpiryChoice, now: number): number | null {
  const days = EXPIRY_CHOICES.find((c) => c.value === choice)!.days;
  return days === null ? null : now + days * DAY_MS;
}
