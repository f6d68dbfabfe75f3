import type { ModelRow } from "../db/schema";

type Upstream = Pick<ModelRow, "base_url" | "api_key" | "upstream_model">;

function headers(model: Upstream): Headers {
  const h = new Headers({ accept: "application/json" });
  if (model.api_key) h.set("authorization", `Bearer ${model.api_key}`);
  return h;
}

/** online when the upstream's `/models` answers, starting on 503 (vLLM loading), offline otherwise. */
export async function probeUpstream(model: Upstream, timeoutMs: number): Promise<"online" | "starting" | "offline"> {
  if (!model.base_url) return "offline";
  try {
    const response = await fetch(`${model.base_url}/models`, { headers: headers(model), signal: AbortSignal.timeout(timeoutMs) });
    await response.body?.cancel().catch(() => {});
    if (response.ok) return "online";
    return response.status === 503 ? "starting" : "offline";
  } catch {
    return "offline";
  }
}

/**
 * Sends a chat-completions request to the model's OpenAI-compatible upstream. The body is the client's,
 * with the upstream's model id; `signal` aborts the upstream request (a closed tab, a Stop button).
 */
export async function postChatCompletion(model: Upstream, body: Record<string, unknown>, signal: AbortSignal): Promise<Response> {
  const h = headers(model);
  h.set("content-type", "application/json");
  if (body.stream) h.set("accept", "text/event-stream");
  return fetch(`${model.base_url}/chat/completions`, {
    method: "POST",
    headers: h,
    body: JSON.stringify({ ...body, model: model.upstream_model }),
    signal,
  });
}
