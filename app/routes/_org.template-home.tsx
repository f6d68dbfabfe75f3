import { Form, Link, useLocation, useSearchParams } from "@remix-run/react";
import { Clock, Heart, Search, Star, Users } from "lucide-react";
import type { RefObject } from "react";
import { useRef, useState } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import { TemplateThumbnail } from "~/features/demos/TemplateThumbnail";
import type { Template, TemplateTab } from "~/features/demos/templates";
import { NO_TEMPLATES_FOUND, TEMPLATES, TEMPLATE_TABS, filterTemplates, isTemplateTab } from "~/features/demos/templates";
import { useFocusOnRemoval } from "~/lib/focus-on-removal";
import type { RouteHandle } from "~/lib/route-handle";
import { useTabList } from "~/lib/use-tab-list";

export const handle: RouteHandle = { title: "Templates" };

/**
 * SPEC §2 /template-home: search and tabs live in the URL (`?q=…&tab=…`), so they work without
 * JavaScript and survive a reload; favourites are local to the page.
 */
export default function TemplateHomePage() {
  const [params] = useSearchParams();
  const location = useLocation();
  const hydrated = useHydrated();
  const searchRef = useRef<HTMLInputElement>(null);
  const { listProps, tabProps } = useTabList();
  const fromUrl = () => ({ q: params.get("q") ?? "", tab: tabFrom(params.get("tab")) });
  // Typing filters from local state at once. The address bar follows without a navigation (no
  // history entry, and no reload of the layout's data per keystroke), so Back from the editor and a
  // reload restore the filter.
  const [filter, setFilter] = useState(fromUrl);
  const [seen, setSeen] = useState(location.key);
  if (location.key !== seen) {
    // A navigation (the sidebar link, Back/Forward) wins over what was typed here.
    setSeen(location.key);
    setFilter(fromUrl());
  }
  const { q: query, tab } = filter;
  const [favourites, setFavourites] = useState<ReadonlySet<string>>(new Set());
  const results = filterTemplates(TEMPLATES, query, tab);
  const featured = results.filter((t) => t.featured);

  const searchFor = (next: { q: string; tab: TemplateTab }) => {
    const p = new URLSearchParams();
    if (next.q) p.set("q", next.q);
    if (next.tab !== "All") p.set("tab", next.tab);
    return p;
  };
  const hrefFor = (next: { q?: string; tab?: TemplateTab }) => {
    const s = searchFor({ q: next.q ?? query, tab: next.tab ?? tab }).toString();
    return s ? `?${s}` : ".";
  };
  const update = (next: { q?: string; tab?: TemplateTab }) => {
    const merged = { q: next.q ?? query, tab: next.tab ?? tab };
    setFilter(merged);
    replaceAddress(searchFor(merged));
  };
  const toggleFavourite = (id: string) =>
    setFavourites((f) => {
      const next = new Set(f);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  return (
    <section className="flex flex-col gap-6">
      <header className="flex flex-col gap-4">
        <div>
          <h2 className="text-3xl font-bold">Template gallery</h2>
          <p className="text-base-content/70">Start from a proven recipe and make it yours.</p>
        </div>
        <Form method="get" role="search" className="flex gap-2" onSubmit={(e) => hydrated && e.preventDefault()}>
          {tab !== "All" ? <input type="hidden" name="tab" value={tab} /> : null}
          <label className="input w-full max-w-xl">
            <Search className="size-4 opacity-60" aria-hidden />
            <span className="sr-only">Search templates</span>
            <input
              type="search"
              name="q"
              placeholder="Search templates by title, description or tag"
              value={query}
              ref={searchRef}
              onChange={(e) => update({ q: e.currentTarget.value })}
            />
          </label>
          {hydrated ? null : (
            <button type="submit" className="btn">
              Search
            </button>
          )}
        </Form>
        <div {...listProps} aria-label="Template categories" className="tabs tabs-border">
          {TEMPLATE_TABS.map((t) => (
            <Link
              key={t}
              to={hrefFor({ tab: t })}
              replace
              preventScrollReset
              onClick={(e) => {
                e.preventDefault();
                update({ tab: t });
              }}
              {...tabProps(t === tab)}
              className={`tab ${t === tab ? "tab-active" : ""}`}
            >
              {t}
            </Link>
          ))}
        </div>
      </header>

      {results.length === 0 ? (
        <NoTemplatesFound onClear={() => update({ q: "", tab: "All" })} search={searchRef} />
      ) : (
        <>
          {featured.length > 0 ? (
            <section aria-labelledby="featured-templates">
              <h3 id="featured-templates" className="mb-3 flex items-center gap-2 text-xl font-semibold">
                <Star className="size-5 text-warning" aria-hidden /> Featured
              </h3>
              <TemplateGrid templates={featured} favourites={favourites} onFavourite={toggleFavourite} hydrated={hydrated} />
            </section>
          ) : null}
          <section aria-labelledby="all-templates">
            <h3 id="all-templates" className="mb-3 text-xl font-semibold">
              All templates <span className="badge badge-ghost">{results.length}</span>
            </h3>
            <TemplateGrid templates={results} favourites={favourites} onFavourite={toggleFavourite} hydrated={hydrated} />
          </section>
        </>
      )}
    </section>
  );
}

/**
 * The address bar shows the filter without a navigation: the router's history entry (its state, its
 * key) is kept, and its location is read again from the address at the next Back or reload.
 */
function replaceAddress(search: URLSearchParams) {
  const query = search.toString();
  window.history.replaceState(window.history.state, "", `${window.location.pathname}${query ? `?${query}` : ""}`);
}

/**
 * The empty result. Its Clear search goes away with the card once the results are back: focus then
 * moves to the search box rather than falling to the page's body.
 */
function NoTemplatesFound({ onClear, search }: { onClear: () => void; search: RefObject<HTMLInputElement> }) {
  const clear = useRef<HTMLAnchorElement>(null);
  useFocusOnRemoval(clear, search);
  return (
    <div className="card bg-base-100 shadow-sm">
      <div className="card-body items-center text-center">
        <p className="text-lg font-medium">{NO_TEMPLATES_FOUND}</p>
        <Link
          ref={clear}
          to="."
          className="btn btn-ghost btn-sm"
          onClick={(e) => {
            e.preventDefault();
            onClear();
          }}
        >
          Clear search
        </Link>
      </div>
    </div>
  );
}

function tabFrom(value: string | null): TemplateTab {
  return isTemplateTab(value) ? value : "All";
}

function TemplateGrid({
  templates,
  favourites,
  onFavourite,
  hydrated,
}: {
  templates: Template[];
  favourites: ReadonlySet<string>;
  onFavourite: (id: string) => void;
  hydrated: boolean;
}) {
  return (
    <ul className="grid gap-4 md:grid-cols-2 xl:grid-cols-4">
      {templates.map((t) => (
        <li key={t.id}>
          <TemplateCard template={t} favourite={favourites.has(t.id)} onFavourite={onFavourite} hydrated={hydrated} />
        </li>
      ))}
    </ul>
  );
}

function TemplateCard({
  template: t,
  favourite,
  onFavourite,
  hydrated,
}: {
  template: Template;
  favourite: boolean;
  onFavourite: (id: string) => void;
  hydrated: boolean;
}) {
  return (
    <article className="card h-full bg-base-100 shadow-sm" aria-label={t.title}>
      <figure className="relative grid h-28 place-items-center bg-gradient-to-br from-primary/15 to-secondary/15 text-primary" aria-hidden>
        <TemplateThumbnail name={t.thumbnail} className="size-12" />
      </figure>
      <div className="card-body gap-2 p-5">
        <div className="flex items-start justify-between gap-2">
          <h4 className="card-title text-base">{t.title}</h4>
          {hydrated ? (
            <button
              type="button"
              className="btn btn-circle btn-ghost btn-xs"
              aria-pressed={favourite}
              aria-label={favourite ? `Remove ${t.title} from favourites` : `Add ${t.title} to favourites`}
              onClick={() => onFavourite(t.id)}
            >
              <Heart className={`size-4 ${favourite ? "fill-error text-error" : ""}`} aria-hidden />
            </button>
          ) : null}
        </div>
        <p className="text-sm text-base-content/70">{t.description}</p>
        <ul className="flex flex-wrap gap-1" aria-label="Tags">
          <li className="badge badge-primary badge-soft badge-sm">{t.category}</li>
          {t.tags.map((tag) => (
            <li key={tag} className="badge badge-ghost badge-sm">
              #{tag}
            </li>
          ))}
        </ul>
        <div className="mt-1 flex items-center gap-3 text-xs text-base-content/60">
          <span className="flex items-center gap-1">
            <Star className="size-3" aria-hidden /> {t.rating.toFixed(1)}
          </span>
          <span className="flex items-center gap-1">
            <Users className="size-3" aria-hidden /> {t.uses.toLocaleString("en-US")} uses
          </span>
          <span className="flex items-center gap-1">
            <Clock className="size-3" aria-hidden /> {t.estimatedTime}
          </span>
        </div>
        <div className="card-actions mt-auto justify-end pt-2">
          <Link to={`/template-editor?template=${encodeURIComponent(t.id)}`} className="btn btn-primary btn-sm" aria-label={`Use Template: ${t.title}`}>
            Use Template
          </Link>
        </div>
      </div>
    </article>
  );
}
