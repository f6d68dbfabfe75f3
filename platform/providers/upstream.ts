import { request } from "undici";
import type { ModelRow } from "../db/schema";

type Upstream = Pick<ModelRow, "base_url" | "api_key" | "upstream_model">;

/**
 * An upstream's answer as the chat needs it: status, headers, and the body as it arrives (read it
 * once: `text()` or `chunks`). `cancel` lets go of a body nobody will read.
 */
export interface UpstreamReply {
  status: number;
  header: (name: string) => string | null;
  text: () => Promise<string>;
  chunks: AsyncIterable<Uint8Array>;
  cancel: () => void;
}

function headers(model: Pick<Upstream, "api_key">): Record<string, string> {
  return model.api_key ? { accept: "application/json", authorization: `Bearer ${model.api_key}` } : { accept: "application/json" };
}

/**
 * online when the upstream's `/models` answers, or answers 429 (busy, not down: it is up and accepting
 * requests, a chat just waits its turn as SPEC §4 says of a 429); starting on 503 (vLLM loading);
 * offline otherwise. It reads only the upstream's address and key, so one probe serves every model that
 * shares them.
 */
export async function probeUpstream(model: Pick<Upstream, "base_url" | "api_key">, timeoutMs: number): Promise<"online" | "starting" | "offline"> {
  if (!model.base_url) return "offline";
  try {
    const response = await request(`${model.base_url}/models`, { headers: headers(model), signal: AbortSignal.timeout(timeoutMs) });
    await response.body.dump().catch(() => {});
    if ((response.statusCode >= 200 && response.statusCode < 300) || response.statusCode === 429) return "online";
    return response.statusCode === 503 ? "starting" : "offline";
  } catch {
    return "offline";
  }
}

/**
 * How long an upstream may stay silent (default): before its first byte (its headers; a JSON answer's
 * whole generation), and between two pieces of its answer. It was undici's unnamed default (the same
 * 300 s), which raced the reverse proxy's read timeout. The proxies in front wait longer, so that the
 * client reads the platform's 504 rather than a proxy's page: the PLATFORM_URL proxy 330 s
 * (server/forward-fetch.ts), deploy/nginx.conf 360 s.
 */
export const UPSTREAM_TIMEOUT_MS = 300_000;

/** Whether an upstream request failed because the upstream was silent too long (before its headers, or mid-body). */
export function isUpstreamTimeout(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_BODY_TIMEOUT";
}

/**
 * Sends a chat-completions request to the model's OpenAI-compatible upstream. The body is the client's,
 * with the upstream's model id; `signal` aborts the upstream request (a closed tab, a Stop button);
 * `timeoutMs` bounds the upstream's silence (UPSTREAM_TIMEOUT_MS), failing with `isUpstreamTimeout`.
 *
 * undici's `request` rather than `fetch`: it reaches the upstream in half the time (no WHATWG Request
 * and Response to build), and the time to first token is the chat's budget (DESIGN §7).
 */
export async function postChatCompletion(
  model: Upstream,
  body: Record<string, unknown>,
  signal: AbortSignal,
  timeoutMs = UPSTREAM_TIMEOUT_MS,
): Promise<UpstreamReply> {
  const response = await request(`${model.base_url}/chat/completions`, {
    method: "POST",
    headers: { ...headers(model), "content-type": "application/json", ...(body.stream ? { accept: "text/event-stream" } : {}) },
    body: JSON.stringify({ ...body, model: model.upstream_model }),
    signal,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
  const answer = response.body;
  return {
    status: response.statusCode,
    header: (name) => {
      const value = response.headers[name.toLowerCase()];
      return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
    },
    text: () => answer.text(),
    chunks: answer,
    cancel: () => void answer.destroy(),
  };
}

/** The same shape for an answer made in-process (the built-in model). */
export function replyOf(response: Response): UpstreamReply {
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  async function* chunks() {
    if (!response.body) return;
    reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  }
  return {
    status: response.status,
    header: (name) => response.headers.get(name),
    text: () => response.text(),
    chunks: chunks(),
    cancel: () => void (reader ?? response.body)?.cancel().catch(() => {}),
  };
}
