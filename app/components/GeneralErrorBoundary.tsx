import { isRouteErrorResponse, Link, useRouteError } from "@remix-run/react";

/** What a person reads for each status: never a stack trace, never the server's wording. */
const FRIENDLY: Record<number, { title: string; text: string }> = {
  400: { title: "Bad request", text: "The request was not understood." },
  401: { title: "Signed out", text: "Please sign in again to continue." },
  403: { title: "No access", text: "You don't have access to this page." },
  404: { title: "Page not found", text: "We couldn't find that page." },
  405: { title: "Not available here", text: "This page doesn't take that request. Go back and try again from the page." },
  429: { title: "Too many requests", text: "Please wait a moment and try again." },
  502: { title: "Service unavailable", text: "The platform did not answer. Please try again." },
  503: { title: "Service unavailable", text: "The platform did not answer. Please try again." },
};
const UNEXPECTED = { title: "Something went wrong", text: "Something went wrong on our side. Please try again." };

/** The friendly words for a status (a pure rule, tested without a browser). */
export function friendlyError(status: number): { title: string; text: string } {
  return FRIENDLY[status] ?? UNEXPECTED;
}

/**
 * The one error boundary body, reused at the root (a whole page) and in the organization layout (the
 * content area, so the sidebar and header survive): a status, a friendly message, and a way home.
 *
 * One heading names the page. Where the card is the whole page (`pageTitle` absent) its title is the
 * page's `h1`. In the layout the header's `h1` names the page: the card's title is an `h2` under it,
 * or nothing when the header already says the same (an unknown address: "Page not found" once).
 */
export function GeneralErrorBoundary({ pageTitle }: { pageTitle?: string }) {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  if (!isRouteErrorResponse(error)) console.error(error);
  const { title, text } = friendlyError(status);
  const Heading = pageTitle === undefined ? "h1" : "h2";
  const titled = pageTitle !== title;
  return (
    <div className="card mx-auto w-full max-w-md bg-base-100 shadow" role="alert" aria-labelledby={titled ? "error-title" : undefined}>
      <div className="card-body items-center text-center">
        <p className="text-5xl font-bold text-base-content/40">{status}</p>
        {titled ? (
          <Heading id="error-title" className="card-title">
            {title}
          </Heading>
        ) : null}
        <p className="text-base-content/70">{text}</p>
        <Link to="/" className="btn btn-primary mt-4">
          Go home
        </Link>
      </div>
    </div>
  );
}
