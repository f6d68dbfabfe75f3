import { tokenSpendSchema } from "@contract/usage";
import { USAGE_LOAD_ERROR } from "~/features/usage/format";
import type { UsageFilterValues, UsagePeriod } from "~/features/usage/format";
import { filterParams } from "~/features/usage/format";
import type { PlatformClient } from "./client.server";
import { TOKEN_SPEND_LOAD_ERROR, usageReportSchema } from "./usage";

export async function getUsage(api: PlatformClient, days: UsagePeriod, filters: UsageFilterValues = {}) {
  const query = filterParams(filters, new URLSearchParams({ days: String(days) }));
  const result = await api.call("GET", `/usage?${query}`, usageReportSchema, USAGE_LOAD_ERROR);
  if (!result.ok && !result.logged) console.warn("Usage fetch failed:", result.status, result.error);
  return result.ok ? { ok: true as const, report: result.data } : { ok: false as const, status: result.status, error: USAGE_LOAD_ERROR };
}

/**
 * Each token's spend this UTC month, by public id; null when the call fails: the token list still
 * shows, with the month's figures unknown rather than $0.00.
 */
export async function getTokenSpend(api: PlatformClient): Promise<Record<string, number> | null> {
  const result = await api.call("GET", "/usage/token-spend", tokenSpendSchema, TOKEN_SPEND_LOAD_ERROR);
  if (!result.ok) {
    if (!result.logged) console.warn("Token spend fetch failed:", result.status, result.error);
    return null;
  }
  return Object.fromEntries(result.data.tokens.map((t) => [t.token, t.spent]));
}

/**
 * A CSV export, streamed from the platform as it is read (never buffered here): the platform's answer
 * with its type and file name, or its error as plain text with its status. With `refusedBackTo`, a
 * refused query (400) goes back to the page the form is on, at the URL it makes of the message (it may add
 * headers to the redirect: a flash cookie), so the person sees why beside the form instead of a bare error page.
 */
export async function streamCsv(
  api: PlatformClient,
  path: string,
  signal: AbortSignal,
  refusedBackTo?: (message: string, headers: Headers) => Promise<string>,
): Promise<Response> {
  let upstream: Response;
  try {
    upstream = await api.send("GET", path, undefined, signal);
  } catch (error) {
    console.error(`CSV export ${path} failed:`, error);
    return new Response("Export failed", { status: 502, headers: { "content-type": "text/plain; charset=utf-8" } });
  }
  const headers = new Headers(api.headers);
  headers.set("cache-control", "no-store");
  if (!upstream.ok) {
    headers.set("content-type", "text/plain; charset=utf-8");
    const body = await upstream.text().catch(() => "");
    let message = "Export failed";
    try {
      message = (JSON.parse(body) as { error?: string }).error ?? message;
    } catch {
      // not JSON: keep the default
    }
    if (upstream.status === 400 && refusedBackTo) {
      headers.set("location", await refusedBackTo(message, headers));
      return new Response(null, { status: 303, headers });
    }
    return new Response(message, { status: upstream.status, headers });
  }
  headers.set("content-type", upstream.headers.get("content-type") ?? "text/csv; charset=utf-8");
  const disposition = upstream.headers.get("content-disposition");
  if (disposition) headers.set("content-disposition", disposition);
  return new Response(upstream.body, { status: 200, headers });
}
