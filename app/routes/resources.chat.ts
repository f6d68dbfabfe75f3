import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { STALE_ORGANIZATION } from "~/features/chat/retry";
import { chatSendSchema } from "~/platform/chat";
import { chatReceipt, sendChat } from "~/platform/chat.server";
import { failureText, platformClient, requestNote } from "~/platform/client.server";
import { MODEL_STATUS_FAILED, modelStatusAnswer } from "~/platform/models.server";
import { staleOrganizationRefusal } from "~/session.server";

const SEND_FAILED = "Failed to send message";

function json(body: unknown, status = 200, headers?: HeadersInit) {
  const h = new Headers(headers);
  h.set("content-type", "application/json");
  h.set("cache-control", "no-store");
  return new Response(JSON.stringify(body), { status, headers: h });
}

/**
 * The chat's resource route (DESIGN §5): the browser posts here, and the server makes the platform's
 * POST /api/v1/chat/completions call on its behalf and streams the body straight through. The
 * browser's request signal goes along, so Stop or a closed tab aborts the upstream request.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return json({ error: { message: "Method not allowed" } }, 405);
  const parsed = chatSendSchema.safeParse(await request.json().catch(() => null));
  if (!parsed.success) return json({ error: { message: "Send a model and at least one message" } }, 400);
  const api = platformClient(request, context);
  let stale: string | null;
  try {
    stale = await staleOrganizationRefusal(request, api);
  } catch (error) {
    // The session could not be checked (the platform is down): a 503 here would read as a model warming up.
    if (error instanceof Response) return json({ error: { message: SEND_FAILED } }, 502);
    throw error;
  }
  // Coded, for the page to load again and show the organization the refusal names.
  if (stale) return json({ error: { message: stale, code: STALE_ORGANIZATION } }, 409, api.headers);
  let upstream: Response;
  try {
    upstream = await sendChat(api, parsed.data, request.signal);
  } catch (error) {
    if (request.signal.aborted) return new Response(null, { status: 499 });
    console.error(`Chat request failed${requestNote(request)}: ${failureText(error)}`);
    return json({ error: { message: SEND_FAILED } }, 502);
  }
  const headers = new Headers(api.headers);
  const receipt = upstream.headers.get("x-receipt-id");
  if (receipt) headers.set("x-receipt-id", receipt);
  const retryAfter = upstream.headers.get("retry-after");
  if (retryAfter) headers.set("retry-after", retryAfter);
  headers.set("content-type", upstream.headers.get("content-type") ?? "application/json");
  headers.set("cache-control", "no-cache");
  headers.set("x-accel-buffering", "no");
  return new Response(upstream.body, { status: upstream.status, statusText: upstream.statusText, headers });
}

/** `?status=1`: the model status map (polled every 30 s); `?receipt=ID`: a reply's usage receipt. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const api = platformClient(request, context);
  const receipt = url.searchParams.get("receipt");
  if (receipt) {
    const result = await chatReceipt(api, receipt);
    return result.ok ? json(result.data) : json({ error: result.error }, result.status);
  }
  if (url.searchParams.has("status")) {
    const result = await modelStatusAnswer(api);
    if (result.ok) return json(result.data);
    // A refusal (signed out, no organization) is the platform's own answer, as the receipt's and the
    // send's are: not a failure to warn about on every poll.
    if (result.status < 500) return json({ error: result.error }, result.status);
    if (!result.logged) console.warn("Model status fetch failed:", result.status, result.error);
    return json({ error: MODEL_STATUS_FAILED }, 502);
  }
  return json({ error: "Not found" }, 404);
}
