import type { MetaFunction } from "@remix-run/node";
import { Unavailable } from "~/components/Unavailable";
import type { RouteHandle } from "./_org";

export const handle: RouteHandle = { title: "Avatar" };
export const meta: MetaFunction = () => [{ title: "Avatar · AI Console" }];

export default function AvatarPage() {
  return <Unavailable screen="Avatar" />;
}
