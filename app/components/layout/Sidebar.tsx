import { Link, useLocation } from "@remix-run/react";
import type { ReactNode } from "react";
import { SaveOnChangeSelect } from "~/components/SaveOnChangeSelect";
import type { NavItem } from "./nav";
import { homeNav, organizationNav, systemNav } from "./nav";

interface SidebarProps {
  organizations: { id: number; name: string }[];
  active: { id: number; name: string };
  showSystem: boolean;
  /** Admin-only links (the audit log) are left out for members. */
  isAdmin?: boolean;
}

export function Sidebar({ organizations, active, showSystem, isAdmin = false }: SidebarProps) {
  const { pathname } = useLocation();
  return (
    <aside className="flex min-h-full w-sidebar max-w-[85vw] flex-col gap-2 border-r border-base-300 bg-base-100 p-3" aria-label="Sidebar">
      <div className="px-2 py-3 text-lg font-bold">AI Console</div>
      {organizations.length > 1 ? (
        <OrganizationSwitcher organizations={organizations} active={active} />
      ) : (
        <p className="truncate px-2 text-sm text-base-content/70">{active.name}</p>
      )}
      <NavSection title="Home" items={homeNav} pathname={pathname} />
      <NavSection title="Organization" items={organizationNav.filter((item) => isAdmin || !item.adminOnly)} pathname={pathname} />
      {showSystem ? <NavSection title="System" items={systemNav} pathname={pathname} /> : null}
    </aside>
  );
}

/**
 * NavLink's rule (case-insensitive; "/" only when exact, the others for their subpages too), worked out
 * once for the sidebar instead of by each link's own hooks on every render (decision 0087).
 */
export function isActivePath(pathname: string, to: string): boolean {
  const path = pathname.toLowerCase();
  const target = to.toLowerCase();
  return path === target || (target !== "/" && path.startsWith(target) && path.charAt(target.length) === "/");
}

function NavSection({ title, items, pathname }: { title: string; items: NavItem[]; pathname: string }) {
  return (
    <nav aria-label={title}>
      <ul className="menu w-full p-0">
        <li className="menu-title">{title}</li>
        {items.map(({ to, label, icon: Icon }) => {
          const active = isActivePath(pathname, to);
          return (
            <li key={to}>
              <SidebarLink to={to} active={active}>
                <Icon className="size-4" aria-hidden />
                {label}
              </SidebarLink>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

/**
 * A sidebar link. In the browser it is Remix's `Link` (client-side navigation, prefetch on intent,
 * route discovery). On the server, where a link only writes its markup, it writes the same `<a>`
 * without the link's hooks, which were about a seventh of `/team`'s render for the sidebar's 15–18
 * links (decision 0087, tenth pass). React hydrates the `<a>` it finds; `sidebar-link.test.tsx` holds
 * both markups equal.
 */
export function SidebarLink({ to, active, children }: { to: string; active: boolean; children: ReactNode }) {
  const className = active ? "menu-active bg-primary! text-primary-content!" : "";
  if (typeof document === "undefined") {
    return (
      <a aria-current={active ? "page" : undefined} className={className} data-discover="true" href={to}>
        {children}
      </a>
    );
  }
  return (
    <Link to={to} prefetch="intent" aria-current={active ? "page" : undefined} className={className}>
      {children}
    </Link>
  );
}

/**
 * Switches on change; before hydration, a Switch button submits it (DESIGN §6). The current page goes
 * with it, so the switch keeps it when the new organization has it (issue 14).
 */
function OrganizationSwitcher({ organizations, active }: Pick<SidebarProps, "organizations" | "active">) {
  const location = useLocation();
  return (
    <SaveOnChangeSelect
      id="organization-switcher"
      label="Active organization"
      name="organizationId"
      action="/switch-organization"
      fields={{ redirectTo: location.pathname + location.search }}
      options={organizations.map((o) => ({ value: String(o.id), label: o.name }))}
      value={String(active.id)}
      answer={active.id}
      saveLabel="Switch"
      className="flex flex-col gap-1 px-1"
      selectClassName="select select-sm w-full"
    />
  );
}
