import type { MetaFunction } from "@remix-run/node";
import { Unavailable } from "~/components/Unavailable";
import type { RouteHandle } from "./_org";

export const handle: RouteHandle = { title: "Task Execution" };
export const meta: MetaFunction = () => [{ title: "Task Execution · AI Console" }];

export default function TaskExecutionPage() {
  return <Unavailable screen="Task execution" />;
}
