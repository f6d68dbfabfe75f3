import { queryString } from "~/lib/query-string";
import { pageCursor } from "~/lib/keyset-page";
import { ORGANIZATION_SEARCH_MAX } from "~/platform/system";

/** Rows per page of the organization editor: each row carries four forms. */
export const ORG_EDITOR_PAGE = 25;

export interface OrgEditorQuery {
  /** What the operator searched for: part of a name, or an id. */
  q: string;
  /** The page after this organization id (newest first); null on the first page. */
  before: number | null;
}

/** The editor's search and page from its URL; anything malformed is simply the first page. */
export function orgEditorQuery(search: URLSearchParams): OrgEditorQuery {
  const q = (search.get("q") ?? "").trim().slice(0, ORGANIZATION_SEARCH_MAX);
  return { q, before: pageCursor(search.get("before")) ?? null };
}

/** The URL search for a query: empty for the first page of everything. */
export function orgEditorSearch({ q, before }: OrgEditorQuery): string {
  return queryString({ q, before });
}
