import type { ComponentType, LazyExoticComponent } from "react";
import { Suspense } from "react";
import { ClientOnly } from "remix-utils/client-only";

function DemoSkeleton() {
  return (
    <div className="grid gap-6 lg:grid-cols-2" aria-busy="true" aria-label="Loading">
      <div className="skeleton h-80 w-full" />
      <div className="skeleton h-80 w-full" />
    </div>
  );
}

/** Renders a lazily loaded demo: its code is a separate chunk fetched in the browser, a skeleton meanwhile. */
export function LazyDemo({ component: Component }: { component: LazyExoticComponent<ComponentType> }) {
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
