import type { LoaderFunctionArgs } from "@remix-run/node";
import { Outlet } from "@remix-run/react";
import { requireAccess } from "~/session.server";

/** System pages need the active organization to be organization 1; others go to /team (SPEC §2). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAccess("system", request, context);
  return null;
}

export default function SystemLayout() {
  return <Outlet />;
}
