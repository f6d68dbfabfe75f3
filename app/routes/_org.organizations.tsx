import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { Building2, Plus } from "lucide-react";
import type { OnboardingIntent } from "~/features/onboarding/forms";
import { OrganizationForms } from "~/features/onboarding/OrganizationForms";
import { createOrJoinOrganization, orgSignupEnabled } from "~/features/onboarding/onboarding.server";
import { readForm } from "~/lib/actions.server";
import { focusSectionAfterAction } from "~/lib/focus-after-action";
import { useIsPending } from "~/lib/use-is-pending";
import { requireAccess } from "~/session.server";
import type { RouteHandle } from "~/lib/route-handle";

export const handle: RouteHandle = { title: "Organizations" };

/** A signed-in user with organizations creates or joins another (issue 14), with /welcome's forms and rules. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { session, api } = await requireAccess("organization", request, context);
  return { organizations: session.organizations, activeId: session.activeOrganization.id, orgSignupEnabled: await orgSignupEnabled(api) };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { api } = await requireAccess("organization", request, context);
  // As on /welcome: the new organization becomes the active one, and the user goes to its /team.
  return createOrJoinOrganization(api, await readForm(request), { toast: true });
}

export default function OrganizationsPage() {
  const { organizations, activeId, orgSignupEnabled } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const resultFor = (intent: OnboardingIntent) => (result?.intent === intent ? result.result : undefined);
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <section className="card bg-base-100 shadow-sm" aria-labelledby="my-organizations-title">
        <div className="card-body">
          <h2 id="my-organizations-title" className="card-title">
            <Building2 className="size-5" aria-hidden />
            Your organizations
          </h2>
          <ul className="flex flex-col divide-y divide-base-300">
            {organizations.map((org) => (
              <li key={org.id} className="flex items-center justify-between gap-3 py-2">
                {/* Cut to the card's width, in full on hover; `dir="auto"` cuts a right-to-left name at its end. */}
                <span className="truncate font-medium" title={org.name} dir="auto">
                  {org.name}
                </span>
                {org.id === activeId ? <span className="badge badge-primary">Active</span> : <SwitchButton organization={org} />}
              </li>
            ))}
          </ul>
        </div>
      </section>
      <section className="card bg-base-100 shadow-sm" aria-labelledby="new-organization-title">
        <div className="card-body gap-6">
          <h2 id="new-organization-title" className="card-title">
            <Plus className="size-5" aria-hidden />
            Create or join an organization
          </h2>
          <OrganizationForms orgSignupEnabled={orgSignupEnabled} resultFor={resultFor} />
        </div>
      </section>
    </div>
  );
}

function SwitchButton({ organization }: { organization: { id: number; name: string } }) {
  const pending = useIsPending({ formAction: "/switch-organization", fields: { organizationId: organization.id } });
  return (
    // The button gives way to the "Active" badge: focus goes to the list's heading, not the page's body.
    <Form method="post" action="/switch-organization" onSubmit={(event) => focusSectionAfterAction(event.currentTarget)}>
      <input type="hidden" name="organizationId" value={organization.id} />
      <input type="hidden" name="redirectTo" value="/organizations" />
      {/* The visible word starts the accessible name: a voice user says what they see. */}
      <button type="submit" className="btn btn-sm" disabled={pending}>
        {pending ? "Switching..." : "Switch"}
        <span className="sr-only"> to {organization.name}</span>
      </button>
    </Form>
  );
}
