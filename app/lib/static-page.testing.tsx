import type { ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router-dom/server";

/**
 * For tests of server markup: a render of `content` at `url` inside a data router, as Remix renders a page,
 * as the route `path` (any by default) under the organization layout's route (`routes/_org`) of
 * organization `organization`.
 */
export async function staticPage(url: string, content: ReactNode, { organization = 7, path = "*" } = {}): Promise<() => string> {
  const handler = createStaticHandler([
    { id: "routes/_org", path: "/", loader: () => ({ activeOrganization: { id: organization } }), children: [{ path, element: content }] },
  ]);
  const context = await handler.query(new Request(`http://console.test${url}`));
  if (context instanceof Response) throw new Error(`${url} answered ${context.status}`);
  const router = createStaticRouter(handler.dataRoutes, context);
  return () => renderToString(<StaticRouterProvider router={router} context={context} hydrate={false} />);
}
