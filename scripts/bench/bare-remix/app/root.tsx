import { Links, Meta, Outlet, Scripts, ScrollRestoration } from "@remix-run/react";

// A new Remix app's root, as its template makes it: the bench's yardstick for a page (DESIGN §7).
export default function App() {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body>
        <Outlet />
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}
