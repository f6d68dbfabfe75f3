import type { ReactElement, ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router-dom/server";
import { beforeAll, beforeEach } from "vitest";

/**
 * For tests of a route as a whole: its loader and action called against a fake platform, and its page
 * rendered on the server (what a browser without JavaScript gets) with what they answered. Remix's data
 * hooks read `routeData`, which the test sets from the loader's and action's answers:
 *
 *   vi.mock("@remix-run/react", async () => (await import("~/lib/route-page.testing")).remixReadingRouteData());
 *
 * (the factory is hoisted above the imports, so it imports this module itself: the same instance the test
 * imports). The rest of `@remix-run/react` is React Router's, which Remix's components are.
 */
export const routeData: { loader: unknown; action: unknown } = { loader: undefined, action: undefined };

/** `@remix-run/react` with its data hooks reading `routeData`, in the organization layout of organization 7, in UTC. */
export async function remixReadingRouteData() {
  return {
    ...(await import("react-router-dom")),
    useLoaderData: () => routeData.loader,
    useActionData: () => routeData.action,
    useRouteLoaderData: (id: string) => (id === "root" ? { timeZone: "UTC" } : { activeOrganization: { id: 7 } }),
  };
}

/** Sessions can be signed, and each test starts with no loader or action answer. */
export function setUpRoutePages() {
  beforeAll(() => {
    process.env.SESSION_SECRET ??= "test-secret-test-secret-test-secret";
  });
  beforeEach(() => {
    routeData.loader = undefined;
    routeData.action = undefined;
  });
}

/** `content` as the page of the route at `url`'s path (its id that path without the slash), inside a data router as Remix renders it. */
export async function routeElement(url: string, content: ReactNode): Promise<ReactElement> {
  const path = new URL(url, "http://console.test").pathname;
  const handler = createStaticHandler([{ id: path.slice(1), path, element: content }]);
  const context = await handler.query(new Request(`http://console.test${url}`));
  if (context instanceof Response) throw new Error(`${url} answered ${context.status}`);
  return <StaticRouterProvider router={createStaticRouter(handler.dataRoutes, context)} context={context} />;
}

/** The markup of `content` as the page at `url` (see `routeElement`). */
export async function renderRoute(url: string, content: ReactNode): Promise<string> {
  return renderToStaticMarkup(await routeElement(url, content));
}
