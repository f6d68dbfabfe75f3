import { data } from "@remix-run/node";

/**
 * A demo page's loader answer: nothing to load, but an unknown category, use case, template or task
 * answers 404 (the page still renders its "… not found" card), so crawlers and link checkers see it.
 */
export function demoStatus(found: unknown) {
  return found ? null : data(null, { status: 404 });
}
