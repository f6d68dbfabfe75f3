import { Outlet } from "@remix-run/react";

/** Centered card layout for the signed-out screens; the guard lives in each screen's loader. */
export default function AuthLayout() {
  return (
    <main className="grid min-h-screen place-items-center p-4">
      <Outlet />
    </main>
  );
}
