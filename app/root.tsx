import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Links, Outlet, Scripts, ScrollRestoration, useLoaderData, useMatches, useRouteLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { GeneralErrorBoundary } from "./components/GeneralErrorBoundary";
import { ProgressBar } from "./components/ProgressBar";
import { RouteAnnouncer } from "./components/RouteAnnouncer";
import { Toaster } from "./components/Toaster";
import { ClientHintCheck, viewerTimeZone } from "./lib/client-hints";
import { useFocusAfterAction } from "./lib/focus-after-action";
import { useFormDrafts } from "./lib/form-drafts";
import { useNonce } from "./lib/nonce";
import { documentTitle } from "./lib/route-handle";
import stylesheet from "./styles/app.css?url";
import type { loader as orgLoader } from "./routes/_org";
import { takeToast } from "./toast.server";
import type { Toast } from "./toast.server";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export async function loader({ request }: LoaderFunctionArgs) {
  const { toast, header } = await takeToast(request);
  return data({ timeZone: viewerTimeZone(request), toast }, header ? { headers: { "Set-Cookie": header } } : undefined);
}

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  const title = documentTitle(useMatches());
  return (
    <html lang="en">
      <head>
        <ClientHintCheck nonce={nonce} />
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{title}</title>
        <Links />
      </head>
      <body className="min-h-full bg-base-200 text-base-content">
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

const DRAFTS_RESTORED: Toast = { kind: "info", message: "Signed in again: what you typed before is filled back in. Check it, then submit again." };

export default function App() {
  const { toast } = useLoaderData<typeof loader>();
  useFocusAfterAction();
  const layout = useRouteLoaderData<typeof orgLoader>("routes/_org");
  const restored = useFormDrafts(layout?.user.id ?? null);
  return (
    <>
      <ProgressBar />
      <Outlet />
      <Toaster toast={restored ? DRAFTS_RESTORED : toast} />
      <RouteAnnouncer />
    </>
  );
}

/** Errors outside the organization layout (sign-in, welcome, the document itself) take the whole page. */
export function ErrorBoundary() {
  return (
    <main className="grid min-h-screen place-items-center p-6">
      <GeneralErrorBoundary />
    </main>
  );
}
