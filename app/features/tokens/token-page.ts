import { queryString } from "~/lib/query-string";
import type { TokenLike } from "./token-rules";
import { sortTokens } from "./token-rules";

export const TOKEN_PAGE_SIZE = 50;

/** One page of the organization's tokens in SPEC §4's order, with where it is among all of them. */
export interface TokenPage<T> {
  tokens: T[];
  /** 1-based, within 1..pages. */
  page: number;
  pages: number;
  total: number;
}

/** `?page=` from /tokens's address: a positive whole number, else the first page. */
export function tokenPageNumber(url: URL): number {
  const n = Number(url.searchParams.get("page"));
  return Number.isInteger(n) && n > 1 ? n : 1;
}

/**
 * The page asked for, of every token sorted as SPEC §4 orders them. The order moves with the clock
 * (a token nearing its expiry moves up), so it is paged here, by number, not by a cursor the platform
 * keeps; a page past the end shows the last one.
 */
export function tokenPage<T extends TokenLike>(tokens: readonly T[], now: number, page: number, size = TOKEN_PAGE_SIZE): TokenPage<T> {
  const pages = Math.max(1, Math.ceil(tokens.length / size));
  const shown = Math.min(page, pages);
  return { tokens: sortTokens(tokens, now).slice((shown - 1) * size, shown * size), page: shown, pages, total: tokens.length };
}

/** /tokens on that page, with a token's settings open when `edit` names it. */
export function tokensHref({ page, edit }: { page?: number; edit?: string }): string {
  return `/tokens${queryString({ page: page !== undefined && page > 1 ? page : undefined, edit })}`;
}
