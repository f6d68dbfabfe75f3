import type { LoaderFunctionArgs } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { homeFor } from "~/features/auth/guards";
import { loginErrorMessage } from "~/features/auth/login-errors";
import { platformClient } from "~/platform/client.server";
import { devSigninSchema } from "~/platform/schemas";
import { loadSession, rememberPath, takeRememberedPath } from "~/session.server";
import { Alert } from "~/components/Alert";
import { useDraftsKeptForSignIn } from "~/lib/form-drafts";
import type { RouteHandle } from "~/lib/route-handle";

export const handle: RouteHandle = { title: "Sign in" };

export async function loader({ request, context }: LoaderFunctionArgs) {
  const api = platformClient(request, context);
  const url = new URL(request.url);
  const session = await loadSession(api);
  if (session.valid) {
    // Signed in (login_success after the provider, or a stray visit): the remembered page, else home.
    const { path, clear } = await takeRememberedPath(request);
    throw redirect(path ?? homeFor(session), { headers: { "Set-Cookie": clear } });
  }
  const headers = new Headers();
  const remembered = await rememberPath(request, url.searchParams.get("redirectTo"));
  if (remembered) headers.append("Set-Cookie", remembered);
  const providers = await api.call("GET", "/auth/providers", devSigninSchema, "");
  return data({ error: loginErrorMessage(url.searchParams.get("error")), devSignin: providers.ok && providers.data.devSignin }, { headers });
}

const providers = [
  { id: "google", label: "Google" },
  { id: "github", label: "GitHub" },
] as const;

export default function Login() {
  const { error, devSignin } = useLoaderData<typeof loader>();
  const draftsKept = useDraftsKeptForSignIn();
  return (
    <div className="card w-full max-w-sm bg-base-100 shadow-lg">
      <div className="card-body gap-4">
        <div className="text-center">
          <h1 className="text-2xl font-bold">AI Console</h1>
          <p className="text-base-content/70">Sign in to continue</p>
        </div>
        {draftsKept ? (
          <Alert kind="info" className="text-sm">
            Your session ended. What you typed is kept: sign in to continue where you were.
          </Alert>
        ) : null}
        {error ? (
          <Alert kind="error" className="text-sm">
            {error}
          </Alert>
        ) : null}
        <div className="flex flex-col gap-2">
          {providers.map((p) => (
            // A plain link: the browser itself must travel to the provider (SPEC §2).
            <a key={p.id} href={`/api/v1/auth/${p.id}`} className="btn btn-outline w-full">
              Continue with {p.label}
            </a>
          ))}
        </div>
        {devSignin ? (
          <div role="note" className="alert alert-warning text-sm">
            Development sign-in: no identity provider is configured, so anyone who can reach this server can sign in as anyone.
          </div>
        ) : null}
        <p className="text-center text-xs text-base-content/60">
          By continuing you agree to the{" "}
          <Link to="/terms" className="link">
            Terms of Service
          </Link>{" "}
          and the{" "}
          <Link to="/privacy" className="link">
            Privacy Policy
          </Link>
          .
        </p>
      </div>
    </div>
  );
}
