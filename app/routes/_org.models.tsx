import type { MetaFunction } from "@remix-run/node";
import { Unavailable } from "~/components/Unavailable";
import type { RouteHandle } from "./_org";

export const handle: RouteHandle = { title: "Models" };
export const meta: MetaFunction = () => [{ title: "Models · AI Console" }];

export default function ModelsPage() {
  return <Unavailable screen="Models" />;
}
