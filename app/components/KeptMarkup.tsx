import { useLocation } from "@remix-run/react";
import { createContext, createElement, useContext } from "react";
import type { ComponentPropsWithoutRef, ReactElement, ReactNode } from "react";
import { usePageOrganizationId } from "~/features/auth/PageOrganizationField";

type HostTag = "section" | "div" | "header" | "aside";

type KeptMarkupProps<T extends HostTag> = ComponentPropsWithoutRef<T> & {
  /** The host element, whose own attributes are rendered as usual; its content is what is kept. */
  as: T;
  /** Names the fragment: one name, one component. */
  name: string;
  /**
   * Everything the content's markup depends on besides the page's address and organization, which are
   * always part of the key. JSON-serialisable.
   */
  inputs: unknown;
  /** False renders the content afresh (a refused form, a just-made secret: markup that is this answer's only). */
  when?: boolean;
  children: ReactNode;
};

/**
 * Fragment caching for the server's render (decision 0119): content whose markup is a function of a few
 * inputs (a form in its first state: its fields, defaults and the page it posts to) is rendered once per
 * distinct inputs and kept; a later document with the same inputs writes the kept markup into the host
 * element instead of rendering it again. In the browser it is the plain element, and React hydrates the
 * markup it finds, as it does the sidebar's kept lists (decision 0087, eleventh pass).
 *
 * The content must not use `useId` (its ids depend on where the fragment sits in the page), nor carry the
 * page's nonce, nor read anything the key lacks: `inputs` says what it reads.
 */
export const KeptMarkup: <T extends HostTag>(props: KeptMarkupProps<T>) => ReactElement = typeof document === "undefined" ? ServerKeptMarkup : PlainHost;

function PlainHost<T extends HostTag>({ as, name: _name, inputs: _inputs, when: _when, children, ...attributes }: KeptMarkupProps<T>) {
  return createElement(as, attributes, children);
}

function ServerKeptMarkup<T extends HostTag>(props: KeptMarkupProps<T>) {
  const { pathname, search } = useLocation();
  const organization = usePageOrganizationId();
  const inside = useContext(InsideKept);
  const { as, name, inputs, when = true, children, ...attributes } = props;
  if (!capturing || !when || inside) return PlainHost(props);
  const key = `${name}\u0000${pathname}${search}\u0000${organization ?? ""}\u0000${JSON.stringify(inputs)}`;
  const kept = store.get(key);
  if (kept !== undefined) {
    // Most recently used last, so the oldest goes first when the store is full.
    store.delete(key);
    store.set(key, kept);
    return createElement(as, { ...attributes, dangerouslySetInnerHTML: { __html: kept } });
  }
  const n = capturing.push(key) - 1;
  return createElement(
    as,
    attributes,
    createElement(FROM, { "data-n": n }),
    createElement(InsideKept.Provider, { value: true }, children),
    createElement(TO, { "data-n": n }),
  );
}

/** A fragment rendered inside another is part of that one's markup. */
const InsideKept = createContext(false);

const FROM = "kept-markup-from";
const TO = "kept-markup-to";
const CAPACITY = 500;

/** Kept markup by key; a Map keeps insertion order, which makes it a least-recently-used list. */
const store = new Map<string, string>();

/** The keys of the fragments the render under way marked, by their number; null outside such a render. */
let capturing: string[] | null = null;

/**
 * Runs a synchronous render (React's `renderToString`) in which fragments are kept: each fragment
 * rendered afresh is marked in the markup, kept when `keepIf` says the document is sent as rendered, and
 * its marks taken out. Development renders every fragment afresh, so an edited component shows at once.
 */
export function renderKeepingMarkup(render: () => string, keepIf: (html: string) => boolean): string {
  if (process.env.NODE_ENV === "development") return render();
  const marked: string[] = [];
  capturing = marked;
  let html: string;
  try {
    html = render();
  } finally {
    capturing = null;
  }
  const keep = marked.length > 0 && keepIf(html);
  for (let n = 0; n < marked.length; n++) {
    const from = `<${FROM} data-n="${n}"></${FROM}>`;
    const to = `<${TO} data-n="${n}"></${TO}>`;
    const start = html.indexOf(from);
    const end = html.indexOf(to, start);
    if (start < 0 || end < 0) continue;
    const markup = html.slice(start + from.length, end);
    if (keep) {
      store.set(marked[n], markup);
      if (store.size > CAPACITY) store.delete(store.keys().next().value!);
    }
    html = html.slice(0, start) + markup + html.slice(end + to.length);
  }
  return html;
}

/** For tests: forget every kept fragment. */
export function forgetKeptMarkup(): void {
  store.clear();
}
