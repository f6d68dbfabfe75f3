import type { Params, UIMatch } from "@remix-run/react";

export const PRODUCT_NAME = "AI Console";

/**
 * What a route says about itself to the layouts: one title, which the header shows and the browser's
 * tab names (decision 0098). The layouts read it from every matched route, also when the page failed
 * and a layout's error boundary stands in for it, where Remix's `meta` stops at the boundary.
 */
export interface RouteHandle {
  /** The page's name in the header, and in the tab unless `tabTitle` names it more precisely. */
  title: string;
  /** A tab title from the page's data or address (a model's name, a playground's use case). */
  tabTitle?: (match: { data: unknown; params: Params }) => string | undefined;
}

function deepestHandle(matches: UIMatch[]): { match: UIMatch; handle: RouteHandle } | undefined {
  for (let i = matches.length - 1; i >= 0; i--) {
    const handle = matches[i].handle as RouteHandle | undefined;
    if (handle?.title) return { match: matches[i], handle };
  }
  return undefined;
}

/** The header's title: the deepest matched route's. */
export function pageTitle(matches: UIMatch[]): string {
  return deepestHandle(matches)?.handle.title ?? "";
}

/** The document's `<title>`: the deepest matched route's, then the product's name. */
export function documentTitle(matches: UIMatch[]): string {
  const deepest = deepestHandle(matches);
  if (!deepest) return PRODUCT_NAME;
  const { match, handle } = deepest;
  const title = handle.tabTitle?.({ data: match.data, params: match.params }) ?? handle.title;
  return `${title} · ${PRODUCT_NAME}`;
}
