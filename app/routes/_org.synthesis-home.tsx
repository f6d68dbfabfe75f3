import type { MetaFunction } from "@remix-run/node";
import { Unavailable } from "~/components/Unavailable";
import type { RouteHandle } from "./_org";

export const handle: RouteHandle = { title: "Synthesis" };
export const meta: MetaFunction = () => [{ title: "Synthesis · AI Console" }];

export default function SynthesisPage() {
  return <Unavailable screen="Synthesis" />;
}
