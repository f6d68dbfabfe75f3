import { SYSTEM_ORG_ID } from "@contract/system";
import type { Role } from "@contract/team";
import { organizationNav } from "~/components/layout/nav";
import { safeRedirectPath } from "~/features/auth/guards";

/** Where every organization has a page: the fallback when the current one has no counterpart. */
export const SWITCH_FALLBACK = "/team";

/** Pages of the system organization only (SPEC §2): anywhere else they would send the user to /team. */
const SYSTEM_PAGES = [/^\/model-editor(\/|$)/, /^\/system(\/|$)/];

/** Pages a member is answered 403 on: the sidebar's admin-only items, so the two lists are one. */
const ADMIN_PAGES = organizationNav.filter((item) => item.adminOnly).map((item) => item.to);

function isAdminPage(path: string): boolean {
  return ADMIN_PAGES.some((page) => path === page || path.startsWith(`${page}/`));
}

/** Pages that only mean something in the organization they were reached from, and the page they belong to. */
const ENTRY_PAGES: [RegExp, string][] = [
  [/^\/billing\/(success|cancel|setup-intent)(\/|$)/, "/billing"],
  [/^\/(welcome|login|logout|switch-organization|resources)(\/|$)/, SWITCH_FALLBACK],
];

/**
 * Query parameters that mean the same in every organization (a period, a chart, a model of the shared
 * catalogue, a dialog, a demo's prompt). Anything else may name a thing of the organization left
 * behind (a token being edited, a ledger cursor, a payment return), so it is dropped: the page opens
 * on its list instead of on another organization's id.
 */
const SHARED_PARAMS = new Set(["days", "chart", "model", "dialog", "tab", "q", "task", "template", "prompt", "modalities"]);

/**
 * The page to show after switching organization (issue 14): the same page when the new organization
 * has it for the role held there, else the nearest one that it has. An unknown role (the session could
 * not be read back) counts as a member's: /team rather than a 403 page.
 */
export function pageAfterSwitch(current: string | null | undefined, organizationId: number, role: Role | null): string {
  const safe = safeRedirectPath(current);
  if (!safe) return SWITCH_FALLBACK;
  const url = new URL(safe, "http://same-site.invalid");
  const path = url.pathname;
  if (organizationId !== SYSTEM_ORG_ID && SYSTEM_PAGES.some((p) => p.test(path))) return SWITCH_FALLBACK;
  if (role !== "admin" && isAdminPage(path)) return SWITCH_FALLBACK;
  for (const [pattern, page] of ENTRY_PAGES) if (pattern.test(path)) return page;
  const kept = new URLSearchParams();
  for (const [name, value] of url.searchParams) if (SHARED_PARAMS.has(name)) kept.append(name, value);
  const search = kept.toString();
  return search ? `${path}?${search}` : path;
}
