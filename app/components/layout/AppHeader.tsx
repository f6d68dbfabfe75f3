import { Form } from "@remix-run/react";
import { Menu } from "lucide-react";
import { NAV_DRAWER_ID } from "./SidebarLayout";

interface AppHeaderProps {
  title: string;
  user: { name: string; email: string };
}

/**
 * Page title and the avatar menu with Logout (SPEC §2); below `lg`, the menu button that opens the
 * sidebar drawer (a label of the drawer's checkbox, whose keyboard focus it shows: no JavaScript needed).
 */
export function AppHeader({ title, user }: AppHeaderProps) {
  const initial = (user.name || user.email).trim().charAt(0).toUpperCase() || "?";
  return (
    <header className="flex items-center justify-between gap-2 border-b border-base-300 bg-base-100 px-3 py-3 sm:gap-4 sm:px-6">
      <div className="flex min-w-0 items-center gap-2">
        <label htmlFor={NAV_DRAWER_ID} className="btn btn-square btn-ghost drawer-button lg:hidden" title="Open navigation menu">
          <Menu className="size-5" aria-hidden />
          <span className="sr-only">Menu</span>
        </label>
        <h1 className="truncate text-xl font-semibold">{title}</h1>
      </div>
      <details className="dropdown dropdown-end">
        <summary role="button" className="btn btn-circle btn-ghost list-none" aria-label="Account menu">
          <span className="grid size-9 place-items-center rounded-full bg-primary text-primary-content">{initial}</span>
        </summary>
        <div className="dropdown-content z-20 mt-2 w-64 rounded-box bg-base-100 p-3 shadow-lg">
          <p className="truncate font-semibold">{user.name}</p>
          <p className="truncate text-sm text-base-content/70">{user.email}</p>
          <Form method="post" action="/logout" className="mt-3">
            <button type="submit" className="btn btn-sm w-full">
              Logout
            </button>
          </Form>
        </div>
      </details>
    </header>
  );
}
