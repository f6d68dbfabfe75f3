import type { LoaderFunctionArgs } from "@remix-run/node";
import type { ReactNode } from "react";
import { Outlet, useLoaderData, useMatches, useRouteLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/GeneralErrorBoundary";
import { AppHeader } from "~/components/layout/AppHeader";
import { Sidebar } from "~/components/layout/Sidebar";
import { SidebarLayout } from "~/components/layout/SidebarLayout";
import { SYSTEM_ORG_ID } from "~/features/auth/guards";
import { useInactivityCheck } from "~/features/auth/use-inactivity-check";
import { pageTitle } from "~/lib/route-handle";
import { requireAccess } from "~/session.server";
import { noStore } from "~/lib/no-store";

export const headers = noStore;

/** Signed-in users with an active organization: the sidebar layout (SPEC §2). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { session } = await requireAccess("organization", request, context);
  return {
    user: session.user,
    organizations: session.organizations,
    activeOrganization: session.activeOrganization,
    activeRole: session.activeRole,
  };
}

type LayoutData = Awaited<ReturnType<typeof loader>>;

function Shell({ layout, title, children }: { layout: LayoutData; title: string; children: ReactNode }) {
  const { user, organizations, activeOrganization, activeRole } = layout;
  useInactivityCheck(user.id);
  return (
    <SidebarLayout
      sidebar={
        <Sidebar
          organizations={organizations}
          active={activeOrganization}
          showSystem={activeOrganization.id === SYSTEM_ORG_ID}
          isAdmin={activeRole === "admin"}
        />
      }
      header={<AppHeader title={title} user={user} />}
    >
      {children}
    </SidebarLayout>
  );
}

export default function OrganizationLayout() {
  const layout = useLoaderData<typeof loader>();
  const title = pageTitle(useMatches());
  return (
    <Shell layout={layout} title={title}>
      <Outlet />
    </Shell>
  );
}

/**
 * A page's error shows in the content area: the sidebar and header survive, so the way on is one
 * click away. When the layout's own loader failed there is no shell to keep, and the page is the boundary.
 */
export function ErrorBoundary() {
  const layout = useRouteLoaderData<typeof loader>("routes/_org");
  const title = pageTitle(useMatches());
  if (!layout) {
    return (
      <main className="grid min-h-screen place-items-center p-6">
        <GeneralErrorBoundary />
      </main>
    );
  }
  return (
    <Shell layout={layout} title={title}>
      <GeneralErrorBoundary pageTitle={title} />
    </Shell>
  );
}
