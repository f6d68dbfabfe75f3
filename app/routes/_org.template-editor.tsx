import type { MetaFunction } from "@remix-run/node";
import { Unavailable } from "~/components/Unavailable";
import type { RouteHandle } from "./_org";

export const handle: RouteHandle = { title: "Template Editor" };
export const meta: MetaFunction = () => [{ title: "Template Editor · AI Console" }];

export default function TemplateEditorPage() {
  return <Unavailable screen="Template editor" />;
}
