import { Info } from "lucide-react";
import { Alert } from "~/components/Alert";
import { BILLING_MESSAGES } from "./messages";

/** SPEC §2: shown on /billing and in the add-funds dialog while the organization has no card. */
export function NoPaymentMethodBanner() {
  return (
    <Alert kind="info">
      <Info className="size-5" aria-hidden />
      <span>{BILLING_MESSAGES.noPaymentMethod}</span>
    </Alert>
  );
}
