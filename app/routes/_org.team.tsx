import type { MetaFunction } from "@remix-run/node";
import { Unavailable } from "~/components/Unavailable";
import type { RouteHandle } from "./_org";

export const handle: RouteHandle = { title: "Team" };
export const meta: MetaFunction = () => [{ title: "Team · AI Console" }];

export default function TeamPage() {
  return <Unavailable screen="Team" />;
}
