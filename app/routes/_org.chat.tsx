import type { MetaFunction } from "@remix-run/node";
import { Unavailable } from "~/components/Unavailable";
import type { RouteHandle } from "./_org";

export const handle: RouteHandle = { title: "Chat" };
export const meta: MetaFunction = () => [{ title: "Chat · AI Console" }];

export default function ChatPage() {
  return <Unavailable screen="Chat" />;
}
