import { Link, useLocation } from "@remix-run/react";
import type { ReactElement, ReactNode } from "react";
import { KeptMarkup } from "~/components/KeptMarkup";
import { SaveOnChangeSelect } from "~/components/SaveOnChangeSelect";
import type { NavItem } from "./nav";
import { homeNav, memberOrganizationNav, organizationNav, systemNav } from "./nav";

interface SidebarProps {
  organizations: { id: number; name: string }[];
  active: { id: number; name: string };
  showSystem: boolean;
  /** Admin-only links (the audit log) are left out for members. */
  isAdmin?: boolean;
}

export function Sidebar(props: SidebarProps) {
  // The same for a person on a page until their organizations or role change: rendered once, kept
  // (decision 0119).
  return (
    <KeptMarkup
      as="aside"
      name="sidebar"
      inputs={[props.organizations, props.active, props.showSystem, props.isAdmin]}
      className="flex min-h-full w-sidebar max-w-[85vw] flex-col gap-2 border-r border-base-300 bg-base-100 p-3"
      aria-label="Sidebar"
    >
      <SidebarContent {...props} />
    </KeptMarkup>
  );
}

function SidebarContent({ organizations, active, showSystem, isAdmin = false }: SidebarProps) {
  const { pathname } = useLocation();
  return (
    <>
      <div className="px-2 py-3 text-lg font-bold">AI Console</div>
      {organizations.length > 1 ? (
        <OrganizationSwitcher organizations={organizations} active={active} />
      ) : (
        // Cut to the sidebar's width, in full on hover; `dir="auto"` cuts a right-to-left name at its end.
        <p className="truncate px-2 text-sm text-base-content/70" title={active.name} dir="auto">
          {active.name}
        </p>
      )}
      <NavSection title="Home" items={homeNav} pathname={pathname} />
      <NavSection title="Organization" items={isAdmin ? organizationNav : memberOrganizationNav} pathname={pathname} />
      {showSystem ? <NavSection title="System" items={systemNav} pathname={pathname} /> : null}
    </>
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
  // At most one: no link's path, nor its flow's, lies under another's (sidebar.test.tsx).
  const activeTo = items.find((item) => [item.to, ...(item.flow ?? [])].some((to) => isActivePath(pathname, to)))?.to ?? "";
  const html = prerendered.get(items)?.get(activeTo);
  // React hydrates the list it finds in the server's markup as if it had written it itself.
  if (html) return <nav aria-label={title} dangerouslySetInnerHTML={html} />;
  return (
    <nav aria-label={title}>
      <NavList title={title} items={items} activeTo={activeTo} />
    </nav>
  );
}

function NavList({ title, items, activeTo }: { title: string; items: NavItem[]; activeTo: string }) {
  // A link's prefetch (on hover or focus) puts `<link>` elements beside it in its item, which daisyUI's
  // menu would lay out as boxes: the item grew by hundreds of pixels under the pointer or the focus.
  return (
    <ul className="menu w-full p-0 [&_link]:hidden">
      <li className="menu-title">{title}</li>
      {items.map(({ to, label, icon: Icon }) => (
        <li key={to}>
          <SidebarLink to={to} active={to === activeTo}>
            <Icon className="size-4" aria-hidden />
            {label}
          </SidebarLink>
        </li>
      ))}
    </ul>
  );
}

/** Each section's list as the server writes it, by its active link ("" for none). Empty in the browser. */
const prerendered = new Map<NavItem[], Map<string, { __html: string }>>();

/**
 * Writes each section's list once, for every link that can be active, so that a page's render only
 * looks it up: the lists were a fifth of a signed-in page's render, and depend on nothing but
 * the section and its active link (decision 0087, eleventh pass). The server's entry calls it with
 * React's string renderer at start.
 */
export function prerenderSidebarNav(render: (element: ReactElement) => string) {
  for (const [title, items] of [
    ["Home", homeNav],
    ["Organization", organizationNav],
    ["Organization", memberOrganizationNav],
    ["System", systemNav],
  ] as const) {
    const byActive = new Map<string, { __html: string }>();
    for (const activeTo of ["", ...items.map((item) => item.to)]) {
      byActive.set(activeTo, { __html: render(<NavList title={title} items={items} activeTo={activeTo} />) });
    }
    prerendered.set(items, byActive);
  }
}

/**
 * A sidebar link. In the browser it is Remix's `Link` (client-side navigation, prefetch on intent). On
 * the server, where a link only writes its markup, it writes the same `<a>` without the link's hooks
 * (decision 0087, tenth pass), which also lets `prerenderSidebarNav` write it outside any router. React
 * hydrates the `<a>` it finds; `sidebar-link.test.tsx` holds both markups equal.
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
 * with it, so the switch keeps it when the new organization has it (issue 14). Like the other selects
 * that save on change it keeps daisyUI's picker (`appearance: base-select`): the arrow keys open the
 * list and move in it, and only Enter or a click switches (WCAG 3.2.2; a plain select switched on the
 * first ArrowDown). Paint containment keeps a long name's text inside the box, off the Switch button.
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
      selectClassName="select select-sm w-full min-w-0 contain-paint"
    />
  );
}
