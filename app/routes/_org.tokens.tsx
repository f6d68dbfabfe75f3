import type { MetaFunction } from "@remix-run/node";
import { Unavailable } from "~/components/Unavailable";
import type { RouteHandle } from "./_org";

export const handle: RouteHandle = { title: "API Tokens" };
export const meta: MetaFunction = () => [{ title: "API Tokens · AI Console" }];

export default function ApiTokensPage() {
  return <Unavailable screen="API Tokens" />;
}
