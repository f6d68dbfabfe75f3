import type { MetaFunction } from "@remix-run/node";
import { Unavailable } from "~/components/Unavailable";
import type { RouteHandle } from "./_org";

export const handle: RouteHandle = { title: "Video Generation" };
export const meta: MetaFunction = () => [{ title: "Video Generation · AI Console" }];

export default function VideoGenerationPage() {
  return <Unavailable screen="Video Generation" />;
}
