import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useParams } from "@remix-run/react";
import { ArrowRight } from "lucide-react";
import { Breadcrumbs, ModelChips } from "~/features/demos/components";
import { NotFoundCard } from "~/features/demos/NotFoundCard";
import { CATEGORY_NOT_FOUND, findCategory, playgroundPath } from "~/features/demos/playground";
import type { RouteHandle } from "~/lib/route-handle";
import { demoStatus } from "~/features/demos/not-found.server";

export const loader = ({ params }: LoaderFunctionArgs) => demoStatus(findCategory(params.category));

export const handle: RouteHandle = {
  title: "Playground",
  tabTitle: ({ params }) => {
    const category = findCategory(params.category);
    return category ? `${category.title} · Playground` : undefined;
  },
};

/** SPEC §2: a category's use-case cards, or 'Category not found'. */
export default function PlaygroundCategoryPage() {
  const params = useParams();
  const category = findCategory(params.category);
  if (!category) {
    return (
      <NotFoundCard title={CATEGORY_NOT_FOUND} to="/" back="Back to categories">
        There is no playground category called “{params.category}”.
      </NotFoundCard>
    );
  }
  return (
    <section className="flex flex-col gap-6">
      <Breadcrumbs items={[{ label: "Home", to: "/" }, { label: category.title }]} />
      <header>
        <h2 className="text-3xl font-bold">{category.title}</h2>
        <p className="text-base-content/70">{category.description}</p>
      </header>
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-label="Use cases">
        {category.useCases.map((u) => (
          <li key={u.id}>
            <article className="card h-full bg-base-100 shadow-sm">
              <div className="card-body">
                <h3 className="card-title">{u.title}</h3>
                <p className="text-sm text-base-content/70">{u.description}</p>
                <ModelChips models={u.models} />
                <div className="card-actions mt-2 items-center justify-end">
                  {/* Every card opens its route (SPEC §2); one without a generator says so before the click,
                      and its route says 'Playground not found'. */}
                  {u.generator ? null : <span className="badge badge-outline">Coming soon</span>}
                  <Link
                    to={playgroundPath(category.id, u.id)}
                    className={`btn btn-sm ${u.generator ? "btn-primary" : "btn-ghost"}`}
                    aria-label={u.generator ? `Open ${u.title}` : `Open ${u.title} (coming soon)`}
                  >
                    Open <ArrowRight className="size-4" aria-hidden />
                  </Link>
                </div>
              </div>
            </article>
          </li>
        ))}
      </ul>
    </section>
  );
}
