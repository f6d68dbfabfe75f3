import { splitReasoning } from "./reasoning";

/** SPEC §3 Chat message, with what the page needs while a reply streams. Lives only in the page. */
export interface ChatMessage {
  id: string;
  role: "user" | "assistant";
  content: string;
  /** Reasoning sent apart from the content (delta.reasoning_content / delta.reasoning). */
  reasoning: string;
  timestamp: number;
  status: "streaming" | "done" | "stopped" | "error";
  receiptId?: string;
  model?: string;
  /** The reply ended at its length limit (finish_reason "length"): it is cut, not finished. */
  cutAtLimit?: boolean;
}

/** Said under a reply that ended at its length limit (SPEC has no text for it). */
export const LENGTH_LIMIT_NOTE = "The reply stopped at its length limit.";

/** A stream chunk's first choice's finish_reason, when it has one. */
export function finishReasonOf(chunk: unknown): string | null {
  const choices = (chunk as { choices?: unknown } | null)?.choices;
  const reason = Array.isArray(choices) ? (choices[0] as { finish_reason?: unknown } | undefined)?.finish_reason : undefined;
  return typeof reason === "string" ? reason : null;
}

let counter = 0;
export function messageId(): string {
  counter += 1;
  return `m${Date.now().toString(36)}${counter}`;
}

/**
 * What goes to the model: roles and answers (an assistant's reasoning is not sent back). A message whose
 * send failed is joined to the one after it: models whose chat template wants roles to alternate refuse
 * two user turns in a row, and every later message would fail the same way.
 */
export function toWire(history: ChatMessage[]): { role: "user" | "assistant"; content: string }[] {
  const wire: { role: "user" | "assistant"; content: string }[] = [];
  for (const m of history) {
    // The answer as the page shows it: a reply that mentions `</think>` or shows it in code goes back whole.
    const content = m.role === "assistant" ? splitReasoning(m.content, m.reasoning, m.status === "streaming").answer : m.content;
    if (m.role === "assistant" && content.trim() === "") continue;
    const last = wire.at(-1);
    if (m.role === "user" && last?.role === "user") last.content = `${last.content}\n\n${content}`;
    else wire.push({ role: m.role, content });
  }
  return wire;
}

/** Regenerate on a user message: keep the history up to and including it (SPEC §4). */
export function truncateAfter(messages: ChatMessage[], id: string): ChatMessage[] {
  const index = messages.findIndex((m) => m.id === id);
  return index === -1 ? messages : messages.slice(0, index + 1);
}

/** A refused send: what to show (SPEC §8) and the OpenAI-shaped `error.code` the chat branches on, when there is one. */
export interface ApiError {
  message: string;
  code: string | null;
}

/** SPEC §8: the server's error.message (or error text), else 'API error: {status text}'; with the error's code. */
export async function apiError(response: Response): Promise<ApiError> {
  const text = await response.text().catch(() => "");
  const fallback = `API error: ${response.statusText || response.status}`;
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown; code?: unknown } | string };
    if (typeof body.error === "string") return { message: body.error || fallback, code: null };
    if (body.error && typeof body.error === "object") {
      const message = typeof body.error.message === "string" && body.error.message ? body.error.message : fallback;
      return { message, code: typeof body.error.code === "string" ? body.error.code : null };
    }
  } catch {
    // not JSON
  }
  return { message: fallback, code: null };
}
