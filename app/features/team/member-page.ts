import { MEMBER_SEARCH_MAX } from "@contract/team";
import { pageCursor } from "~/lib/keyset-page";
import { queryString } from "~/lib/query-string";

/** What /team's address asks of the member list: a search, and at most one cursor (`after` wins). */
export interface MemberListQuery {
  q: string;
  after?: number;
  before?: number;
}

export function memberListQuery(url: URL): MemberListQuery {
  // Longer than the platform takes only by a hand-made address: the box itself stops at the limit.
  const q = (url.searchParams.get("q") ?? "").trim().slice(0, MEMBER_SEARCH_MAX);
  const after = pageCursor(url.searchParams.get("after"));
  const before = after === undefined ? pageCursor(url.searchParams.get("before")) : undefined;
  return { q, after, before };
}

/** /team with that search and page: the pager's links, and where each answer of the page goes back to. */
export function teamHref({ q, after, before }: Partial<MemberListQuery>): string {
  return `/team${queryString({ q, after, before: after === undefined ? before : undefined })}`;
}
