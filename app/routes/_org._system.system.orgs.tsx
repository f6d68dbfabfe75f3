import type { MetaFunction } from "@remix-run/node";
import { Unavailable } from "~/components/Unavailable";
import type { RouteHandle } from "./_org";

export const handle: RouteHandle = { title: "Org Editor" };
export const meta: MetaFunction = () => [{ title: "Org Editor · AI Console" }];

export default function OrgEditorPage() {
  return <Unavailable screen="The organization editor" />;
}
