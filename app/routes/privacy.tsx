import { LegalPage } from "~/components/LegalPage";
import type { RouteHandle } from "~/lib/route-handle";

export const handle: RouteHandle = { title: "Privacy Policy" };

export default function Privacy() {
  return (
    <LegalPage title="Privacy Policy">
      <p>
        When you sign in we receive your name, email address and an account identifier from the identity provider you chose. We use them to sign you in and to
        show you to the other members of your organizations.
      </p>
      <p>
        We keep a record of your organization's usage (model, token counts, cost) for billing. Chat messages typed in the console are not stored by the console;
        they are sent to the model you chose.
      </p>
      <p>Card details go directly to our payment provider; we never see or store card numbers.</p>
      <p>We use cookies only to keep you signed in, to remember the page you were going to, and to show dates in your time zone.</p>
      <p>Ask your organization's admin, or us, to delete your account and its data.</p>
    </LegalPage>
  );
}
