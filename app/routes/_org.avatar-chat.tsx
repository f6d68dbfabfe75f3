import type { MetaFunction } from "@remix-run/node";
import { Unavailable } from "~/components/Unavailable";
import type { RouteHandle } from "./_org";

export const handle: RouteHandle = { title: "Avatar Chat" };
export const meta: MetaFunction = () => [{ title: "Avatar Chat · AI Console" }];

export default function AvatarChatPage() {
  return <Unavailable screen="Avatar chat" />;
}
