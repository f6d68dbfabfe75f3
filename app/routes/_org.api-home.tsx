import type { MetaFunction } from "@remix-run/node";
import { Unavailable } from "~/components/Unavailable";
import type { RouteHandle } from "./_org";

export const handle: RouteHandle = { title: "API" };
export const meta: MetaFunction = () => [{ title: "API · AI Console" }];

export default function ApiPage() {
  return <Unavailable screen="API" />;
}
