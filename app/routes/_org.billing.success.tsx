import type { RouteHandle } from "~/lib/route-handle";

export const handle: RouteHandle = { title: "Billing" };

/** SPEC §2: this route shows the billing screen, which its parent route (_org.billing) renders. */
export default function BillingReturn() {
  return null;
}
