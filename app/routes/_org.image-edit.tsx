import type { MetaFunction } from "@remix-run/node";
import { Unavailable } from "~/components/Unavailable";
import type { RouteHandle } from "./_org";

export const handle: RouteHandle = { title: "Image Edit" };
export const meta: MetaFunction = () => [{ title: "Image Edit · AI Console" }];

export default function ImageEditPage() {
  return <Unavailable screen="Image Edit" />;
}
