import { SYSTEM_ORG_ID } from "@contract/system";
import type { Session } from "~/platform/schemas";

/**
 * A same-site path only: one leading slash, not `//` or `/\` (which browsers treat as another host),
 * no control characters; returned percent-encoded (a `Location` header carries bytes, not Unicode:
 * "/tëam" unencoded made the redirect answer 500). Anything that can't be encoded is refused.
 */
export function safeRedirectPath(to: string | null | undefined): string | null {
  if (!to || !to.startsWith("/") || to.startsWith("//") || to.startsWith("/\\")) return null;
  // Control characters (a tab or newline inside "/\t/evil.example") are dropped by URL parsers.
  if ([...to].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f)) return null;
  let encoded: string;
  try {
    // Everything outside printable ASCII, by UTF-8 bytes; existing %XX escapes are left as they are.
    encoded = to.replace(/[^\x21-\x7e]/gu, (ch) => encodeURIComponent(ch));
  } catch {
    return null; // a lone surrogate has no UTF-8 form
  }
  const base = "http://same-site.invalid";
  const url = new URL(encoded, base);
  // Dot segments ("/.//evil.example", "/%2e//evil.example") resolve to a path that starts with "//",
  // which a later redirect to the resolved path would send to another host.
  return url.origin === base && !url.pathname.startsWith("//") ? encoded : null;
}

/** Where a signed-in user belongs when nothing else was asked for (SPEC §2 /login). */
export function homeFor(session: Session): "/team" | "/welcome" | "/login" {
  if (!session.valid) return "/login";
  return session.activeOrganization ? "/team" : "/welcome";
}

export { SYSTEM_ORG_ID };

export type Access = "signed-out" | "signed-in" | "welcome" | "organization" | "system";

export type GuardResult = { allow: true } | { allow: false; redirectTo: string; remember: boolean };

/** The route guards of SPEC §2 as one rule; `remember` asks to keep the origin page for after sign-in. */
export function guard(access: Access, session: Session): GuardResult {
  if (access === "signed-out") return session.valid ? { allow: false, redirectTo: homeFor(session), remember: false } : { allow: true };
  if (!session.valid) return { allow: false, redirectTo: "/login", remember: true };
  if (access === "signed-in") return { allow: true };
  if (access === "welcome") return session.activeOrganization ? { allow: false, redirectTo: "/team", remember: false } : { allow: true };
  if (!session.activeOrganization) return { allow: false, redirectTo: "/welcome", remember: false };
  if (access === "system" && session.activeOrganization.id !== SYSTEM_ORG_ID) return { allow: false, redirectTo: "/team", remember: false };
  return { allow: true };
}
