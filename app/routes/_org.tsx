import type { LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useLoaderData, useMatches } from "@remix-run/react";
import { AppHeader } from "~/components/layout/AppHeader";
import { Sidebar } from "~/components/layout/Sidebar";
import { SidebarLayout } from "~/components/layout/SidebarLayout";
import { SYSTEM_ORG_ID } from "~/features/auth/guards";
import { useInactivityCheck } from "~/features/auth/use-inactivity-check";
import { requireAccess } from "~/session.server";

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

export interface RouteHandle {
  title?: string;
}

export default function OrganizationLayout() {
  const { user, organizations, activeOrganization } = useLoaderData<typeof loader>();
  const matches = useMatches();
  const title = [...matches].reverse().map((m) => (m.handle as RouteHandle | undefined)?.title).find(Boolean) ?? "";
  useInactivityCheck();
  return (
    <SidebarLayout
      sidebar={<Sidebar organizations={organizations} active={activeOrganization} showSystem={activeOrganization.id === SYSTEM_ORG_ID} />}
      header={<AppHeader title={title} user={user} />}
    >
      <Outlet />
    </SidebarLayout>
  );
}
