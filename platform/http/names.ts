import { PlatformError } from "./errors";

export const ORGANIZATION_NAME_MAX = 100;

// Characters that change how text around them is displayed without being seen: bidi embeddings,
// overrides, isolates and marks. Removed from every stored name (a name must read as it is).
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/gu;
// Control characters (newlines, tabs, NUL…): removed too.
const CONTROLS = /\p{Cc}/gu;
// What does not show: format characters (zero-width space, joiners, soft hyphen), separators and
// the blank "letters" (Hangul fillers, braille blank). A name made only of these is empty.
const INVISIBLE = /[\p{Cf}\p{Z}\s\u115F\u1160\u3164\uFFA0\u2800]/gu;

/**
 * The one rule for names people give things (decision 0083): NFC-normalized, without control or
 * bidi characters, trimmed; refused when nothing visible is left. Joiners stay (emoji and some
 * scripts need them) as long as something visible surrounds them.
 */
export function normalizeName(raw: string, label = "Name", max = ORGANIZATION_NAME_MAX): string {
  const name = raw.normalize("NFC").replace(CONTROLS, "").replace(BIDI_CONTROLS, "").trim();
  if (name.replace(INVISIBLE, "") === "") throw new PlatformError(400, `${label} is required`);
  if ([...name].length > max) throw new PlatformError(400, `${label} must be at most ${max} characters`);
  return name;
}

/** The longest address SMTP carries (RFC 5321's path limit less its brackets). */
export const EMAIL_MAX = 254;
const NOT_IN_AN_ADDRESS = /[\p{Cc}\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;

/**
 * Whether an address a provider gives can be stored as it is: no control or bidi characters (which
 * would make it read as another in a member list or the audit log), and no longer than an address can be.
 */
export function isStorableEmail(email: string): boolean {
  return email.length > 0 && email.length <= EMAIL_MAX && !NOT_IN_AN_ADDRESS.test(email);
}

export function normalizeOrganizationName(raw: string): string {
  return normalizeName(raw, "Organization name");
}

/**
 * Text as a search compares it, in any case: folded here, not by the database's lower(), which on
 * SQLite folds A–Z alone and on PostgreSQL follows the cluster's locale (decision 0120). Beyond
 * toLowerCase: a final sigma is a sigma (ΚΩΝΣ is the start of κωνσταντινος), and Turkish İ, which
 * lowercases to i with a combining dot, is an i (decision 0132).
 */
export function foldForSearch(text: string): string {
  return text
    .normalize("NFC")
    .toLowerCase()
    .replace(/ς/g, "σ")
    .replace(/i\u0307/g, "i");
}

/** A user as /team's member search matches them: name and email, folded (stored as users.search_text). */
export function userSearchText(user: { name: string; email: string }): string {
  return foldForSearch(`${user.name}\n${user.email}`);
}

/** `%text%` for `LIKE … ESCAPE '\'`: the text folded, and its own `%`, `_` and `\` matched as typed. */
export function containsPattern(text: string): string {
  return `%${foldForSearch(text).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
