import type { MetaFunction } from "@remix-run/node";
import { Unavailable } from "~/components/Unavailable";
import type { RouteHandle } from "./_org";

export const handle: RouteHandle = { title: "Multimodal Chat" };
export const meta: MetaFunction = () => [{ title: "Multimodal Chat · AI Console" }];

export default function MultimodalChatPage() {
  return <Unavailable screen="Multimodal chat" />;
}
