import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { Alert } from "~/components/Alert";
import type { OnboardingIntent } from "~/features/onboarding/forms";
import { OrganizationForms } from "~/features/onboarding/OrganizationForms";
import type { OnboardingResult } from "~/features/onboarding/onboarding.server";
import { createOrJoinOrganization, orgSignupEnabled } from "~/features/onboarding/onboarding.server";
import { readForm } from "~/lib/actions.server";
import { useIsPending } from "~/lib/use-is-pending";
import { useInactivityCheck } from "~/features/auth/use-inactivity-check";
import { platformClient } from "~/platform/client.server";
import { requireAccess } from "~/session.server";
import type { RouteHandle } from "~/lib/route-handle";
import { noStore } from "~/lib/no-store";

export const headers = noStore;

export const handle: RouteHandle = { title: "Welcome" };

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { session, api } = await requireAccess("welcome", request, context);
  return { user: session.user, orgSignupEnabled: await orgSignupEnabled(api) };
}

export type WelcomeActionResult = OnboardingResult | { intent: "logout"; logoutFailed: true };

export async function action({ request, context }: ActionFunctionArgs) {
  // A copy: requireAccess reads the form too (the page's organization), and a body is read once.
  const formData = await readForm(request.clone());
  if (formData.get("intent") === "logout") {
    const api = platformClient(request, context);
    const result = await api.logout();
    if (!result.ok) return data<WelcomeActionResult>({ intent: "logout", logoutFailed: true }, 502);
    throw redirect("/login", { headers: api.headers });
  }
  // A session that ended while the page was open goes to sign in, not to a form saying "Not signed in".
  const { api } = await requireAccess("signed-in", request, context);
  // SPEC §2: on success, switch to that organization and go to /team.
  return createOrJoinOrganization(api, formData);
}

export default function Welcome() {
  const { user, orgSignupEnabled } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useIsPending();
  // A signed-in screen outside the sidebar layout, so it checks the session itself (SPEC §4).
  useInactivityCheck(user.id);

  if (result && "logoutFailed" in result) {
    return (
      <main className="grid min-h-screen place-items-center p-6">
        <Alert kind="error" className="text-xl font-semibold">
          Error: Failed to logout
        </Alert>
      </main>
    );
  }
  const resultFor = (intent: OnboardingIntent) => (result && "result" in result && result.intent === intent ? result.result : undefined);

  return (
    <main className="grid min-h-screen place-items-center p-4">
      <div className="card w-full max-w-lg bg-base-100 shadow-lg">
        <div className="card-body gap-6">
          <div>
            <h1 className="text-2xl font-bold">Welcome, {user.name}</h1>
            <p className="text-base-content/70">{user.email}</p>
          </div>
          <OrganizationForms orgSignupEnabled={orgSignupEnabled} resultFor={resultFor} />
          <Form method="post" className="flex justify-end">
            <button type="submit" name="intent" value="logout" className="btn btn-ghost btn-sm" disabled={busy}>
              Sign Out
            </button>
          </Form>
        </div>
      </div>
    </main>
  );
}
