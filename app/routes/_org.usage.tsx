import type { MetaFunction } from "@remix-run/node";
import { Unavailable } from "~/components/Unavailable";
import type { RouteHandle } from "./_org";

export const handle: RouteHandle = { title: "Usage" };
export const meta: MetaFunction = () => [{ title: "Usage · AI Console" }];

export default function UsagePage() {
  return <Unavailable screen="Usage" />;
}
