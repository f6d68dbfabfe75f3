import { Form } from "@remix-run/react";

interface AppHeaderProps {
  title: string;
  user: { name: string; email: string };
}

/** Page title and the avatar menu with Logout (SPEC §2). */
export function AppHeader({ title, user }: AppHeaderProps) {
  const initial = (user.name || user.email).trim().charAt(0).toUpperCase() || "?";
  return (
    <header className="flex items-center justify-between gap-4 border-b border-base-300 bg-base-100 px-6 py-3">
      <h1 className="text-xl font-semibold">{title}</h1>
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
