import type { MetaFunction } from "@remix-run/node";
import { Unavailable } from "~/components/Unavailable";
import type { RouteHandle } from "./_org";

export const handle: RouteHandle = { title: "Templates" };
export const meta: MetaFunction = () => [{ title: "Templates · AI Console" }];

export default function TemplatesPage() {
  return <Unavailable screen="Templates" />;
}
