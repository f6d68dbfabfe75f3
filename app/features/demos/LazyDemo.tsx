import type { ComponentType, LazyExoticComponent } from "react";
import { Suspense } from "react";
import { ClientOnly } from "remix-utils/client-only";

function DemoSkeleton() {
  // Hidden when scripting is off (app.css): then it would never load, and the noscript note says why.
  return (
    <div className="hide-without-script grid gap-6 lg:grid-cols-2" aria-busy="true" aria-label="Loading">
      <div className="skeleton h-80 w-full" />
      <div className="skeleton h-80 w-full" />
    </div>
  );
}

/**
 * Renders a lazily loaded demo: its code is a separate chunk fetched in the browser, a skeleton
 * meanwhile. Without JavaScript it never loads, so the page says what the demo is and what it needs.
 */
export function LazyDemo({ component: Component, title, description }: { component: LazyExoticComponent<ComponentType>; title: string; description: string }) {
  return (
    <>
      <noscript>
        <section className="card bg-base-100 shadow-sm" aria-label={title}>
          <div className="card-body">
            <h2 className="card-title">{title}</h2>
            <p>{description}</p>
            <p className="text-base-content/70">This demo simulates its results in your browser: turn on JavaScript to try it.</p>
          </div>
        </section>
      </noscript>
      <DemoBody component={Component} />
    </>
  );
}

function DemoBody({ component: Component }: { component: LazyExoticComponent<ComponentType> }) {
  return (
    <ClientOnly fallback={<DemoSkeleton />}>
      {() => (
        <Suspense fallback={<DemoSkeleton />}>
          <Component />
        </Suspense>
      )}
    </ClientOnly>
  );
}
