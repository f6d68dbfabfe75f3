import { useRouteLoaderData } from "@remix-run/react";
import type { loader as rootLoader } from "~/root";

/** The viewer's time zone from the root loader's client hints. */
export function useTimeZone(): string {
  return useRouteLoaderData<typeof rootLoader>("root")?.timeZone ?? "UTC";
}
