import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { isRouteErrorResponse, Link, Links, Meta, Outlet, Scripts, ScrollRestoration, useLoaderData, useRouteError } from "@remix-run/react";
import type { ReactNode } from "react";
import { ProgressBar } from "./components/ProgressBar";
import { Toaster } from "./components/Toaster";
import { ClientHintCheck, getHints } from "./lib/client-hints";
import { useNonce } from "./lib/nonce";
import stylesheet from "./styles/app.css?url";
import { takeToast } from "./toast.server";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export const meta: MetaFunction = () => [{ title: "AI Console" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const { toast, header } = await takeToast(request);
  return data({ timeZone: getHints(request).timeZone, toast }, header ? { headers: { "Set-Cookie": header } } : undefined);
}

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  return (
    <html lang="en">
      <head>
        <ClientHintCheck nonce={nonce} />
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
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

export default function App() {
  const { toast } = useLoaderData<typeof loader>();
  return (
    <>
      <ProgressBar />
      <Outlet />
      <Toaster toast={toast} />
    </>
  );
}

const statusMessages: Record<number, string> = {
  400: "The request was not understood.",
  403: "You don't have access to this page.",
  404: "We couldn't find that page.",
  500: "Something went wrong on our side. Please try again.",
};

/** The one error boundary: a friendly message per status, and a way home. */
export function ErrorBoundary() {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  if (!isRouteErrorResponse(error)) console.error(error);
  return (
    <main className="grid min-h-screen place-items-center p-6">
      <div className="card w-full max-w-md bg-base-100 shadow">
        <div className="card-body items-center text-center">
          <p className="text-5xl font-bold text-base-content/40">{status}</p>
          <h1 className="card-title">{statusMessages[status] ?? statusMessages[500]}</h1>
          <Link to="/" className="btn btn-primary mt-4">
            Go home
          </Link>
        </div>
      </div>
    </main>
  );
}
