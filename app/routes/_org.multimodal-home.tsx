import type { MetaFunction } from "@remix-run/node";
import { Unavailable } from "~/components/Unavailable";
import type { RouteHandle } from "./_org";

export const handle: RouteHandle = { title: "Multimodal" };
export const meta: MetaFunction = () => [{ title: "Multimodal · AI Console" }];

export default function MultimodalPage() {
  return <Unavailable screen="Multimodal" />;
}
