import type { MetaFunction } from "@remix-run/node";
import { Unavailable } from "~/components/Unavailable";
import type { RouteHandle } from "./_org";

export const handle: RouteHandle = { title: "Tasks" };
export const meta: MetaFunction = () => [{ title: "Tasks · AI Console" }];

export default function TasksPage() {
  return <Unavailable screen="Tasks" />;
}
