import type { MetaFunction } from "@remix-run/node";
import { Unavailable } from "~/components/Unavailable";
import type { RouteHandle } from "./_org";

export const handle: RouteHandle = { title: "Model Editor" };
export const meta: MetaFunction = () => [{ title: "Model Editor · AI Console" }];

export default function ModelEditorPage() {
  return <Unavailable screen="The model editor" />;
}
