import { MEMBER_SEARCH_MAX } from "@contract/team";
import { pageCursor } from "~/lib/keyset-page";
import { queryString } from "~/lib/query-string";

/**
 * What /team's address asks: the member search and page (`after` wins over `before`), and the page
 * of active invite codes (`invitesBefore`: older, `invitesAfter`: newer). Each list's pager keeps the other's.
 */
export interface TeamQuery {
  q: string;
  after?: number;
  before?: number;
  invitesBefore?: number;
  invitesAfter?: number;
}

export function teamQuery(url: URL): TeamQuery {
  const get = (name: string) => pageCursor(url.searchParams.get(name));
  // Longer than the platform takes only by a hand-made address: the box itself stops at the limit.
  const q = (url.searchParams.get("q") ?? "").trim().slice(0, MEMBER_SEARCH_MAX);
  const after = get("after");
  const invitesBefore = get("invitesBefore");
  return {
    q,
    after,
    before: after === undefined ? get("before") : undefined,
    invitesBefore,
    invitesAfter: invitesBefore === undefined ? get("invitesAfter") : undefined,
  };
}

/** /team with that search and those pages: the pagers' links, and where each answer of the page goes back to. */
export function teamHref({ q, after, before, invitesBefore, invitesAfter }: Partial<TeamQuery>): string {
  return `/team${queryString({
    q,
    after,
    before: after === undefined ? before : undefined,
    invitesBefore,
    invitesAfter: invitesBefore === undefined ? invitesAfter : undefined,
  })}`;
}
