import type { MetaFunction } from "@remix-run/node";
import { Unavailable } from "~/components/Unavailable";
import type { RouteHandle } from "./_org";

export const handle: RouteHandle = { title: "Billing" };
export const meta: MetaFunction = () => [{ title: "Billing · AI Console" }];

export default function BillingPage() {
  return <Unavailable screen="Billing" />;
}
