import type { RouteHandle } from "~/lib/route-handle";

/**
 * Any other URL inside the console: a 404 that the organization layout's boundary shows beside the
 * sidebar (signed-out visitors are sent to sign in first, like on every console page).
 */
/** The header and the tab name the page too, so neither is empty (WCAG 2.4.2, 2.4.6). */
export const handle: RouteHandle = { title: "Page not found" };

export function loader() {
  throw new Response("Not Found", { status: 404 });
}

export default function NotFound() {
  return null;
}
