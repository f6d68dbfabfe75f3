import type { MetaFunction } from "@remix-run/node";
import { Unavailable } from "~/components/Unavailable";
import type { RouteHandle } from "./_org";

export const handle: RouteHandle = { title: "Playground" };
export const meta: MetaFunction = () => [{ title: "Playground · AI Console" }];

export default function PlaygroundPage() {
  return <Unavailable screen="The playground" />;
}
