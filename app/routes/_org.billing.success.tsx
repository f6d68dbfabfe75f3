import type { MetaFunction } from "@remix-run/node";
import type { RouteHandle } from "./_org";

export const handle: RouteHandle = { title: "Billing" };
export const meta: MetaFunction = () => [{ title: "Billing · AI Console" }];

/** SPEC §2: this route shows the billing screen, which its parent route (_org.billing) renders. */
export default function BillingReturn() {
  return null;
}
