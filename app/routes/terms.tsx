import { LegalPage } from "~/components/LegalPage";
import type { RouteHandle } from "~/lib/route-handle";

export const handle: RouteHandle = { title: "Terms of Service" };

export default function Terms() {
  return (
    <LegalPage title="Terms of Service">
      <p>This console gives members of an organization access to hosted AI models through a web interface and an API.</p>
      <p>
        You are responsible for what you and your API tokens send to the models, and for keeping your tokens secret. Revoke a token as soon as you suspect it
        leaked.
      </p>
      <p>Usage is metered and charged to your organization's balance at the listed rates. Funds you add are not refundable except where the law requires it.</p>
      <p>Do not use the service to break the law, to harm others, or to attack the service itself. We may suspend access that does.</p>
      <p>The service is provided as it is, without warranty. We may change these terms; continued use after a change means you accept it.</p>
    </LegalPage>
  );
}
