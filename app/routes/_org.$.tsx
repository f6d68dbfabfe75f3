/**
 * Any other URL inside the console: a 404 that the organization layout's boundary shows beside the
 * sidebar (signed-out visitors are sent to sign in first, like on every console page).
 */
export function loader() {
  throw new Response("Not Found", { status: 404 });
}

export default function NotFound() {
  return null;
}
