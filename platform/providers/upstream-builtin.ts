import { countTokens } from "gpt-tokenizer";

/** Pause between streamed pieces, so a fresh install shows a reply arriving (and Stop has something to stop). */
export const BUILTIN_CHUNK_DELAY_MS = 20;

interface ChatMessage {
  role: string;
  content: unknown;
}

export function messageText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content.map((part) => (part && typeof part === "object" && "text" in part && typeof part.text === "string" ? part.text : "")).join("");
  }
  return "";
}

/** The reply of the built-in development model: a reasoning block, then an answer assembled from the prompt. */
export function builtinReply(messages: ChatMessage[]): { reasoning: string; answer: string } {
  const last = [...messages].reverse().find((m) => m.role === "user");
  const prompt = messageText(last?.content).trim();
  const quoted = prompt.length > 200 ? `${prompt.slice(0, 200)}…` : prompt;
  const reasoning = `The user wrote ${prompt.split(/\s+/).filter(Boolean).length} words. I have no real model behind me, so I will echo the message and explain what I am.`;
  const answer = [
    `You said: **${quoted || "(nothing)"}**`,
    "",
    "I am the built-in development model. I answer without an upstream so that a fresh install can chat; configure real models with `MODELS_FILE`.",
    "",
    "```text",
    `messages in this conversation: ${messages.length}`,
    "```",
  ].join("\n");
  return { reasoning, answer };
}

function pieces(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * Answers a chat-completions request as an OpenAI-compatible server would: SSE chunks (reasoning in a
 * `<think>` block inside the content, then the answer, then a usage chunk when asked for) or one JSON body.
 */
export function builtinChatCompletion(
  body: { messages: ChatMessage[]; stream?: boolean; stream_options?: { include_usage?: boolean } },
  model: string,
  signal: AbortSignal,
  now: number,
  /** The prompt's tokens, counted by the caller without holding the event loop (a prompt may be 1 MB). */
  promptTokens: number,
): Response {
  const { reasoning, answer } = builtinReply(body.messages);
  const content = `<think>${reasoning}</think>\n\n${answer}`;
  const id = `chatcmpl-builtin-${now.toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  const created = Math.floor(now / 1000);
  const completionTokens = countTokens(content);
  const usage = {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
    completion_tokens_details: { reasoning_tokens: countTokens(reasoning) + 2 },
  };
  if (!body.stream) {
    return Response.json({
      id,
      object: "chat.completion",
      created,
      model,
      choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
      usage,
    });
  }
  const encoder = new TextEncoder();
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    encoder.encode(
      `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`,
    );
  const parts = ["<think>", ...pieces(reasoning), "</think>", "\n\n", ...pieces(answer)];
  let index = -1;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        if (index === -1) {
          index = 0;
          controller.enqueue(chunk({ role: "assistant", content: "" }));
          return;
        }
        if (index < parts.length) {
          await sleep(BUILTIN_CHUNK_DELAY_MS, signal);
          controller.enqueue(chunk({ content: parts[index++] }));
          return;
        }
        controller.enqueue(chunk({}, "stop"));
        if (body.stream_options?.include_usage) {
          controller.enqueue(encoder.encode(`data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model, choices: [], usage })}\n\n`));
        }
        controller.enqueue(encoder.encode("data: [DONE]\n\n"));
        controller.close();
      } catch (error) {
        controller.error(error);
      }
    },
  });
  return new Response(stream, { headers: { "content-type": "text/event-stream", "cache-control": "no-cache" } });
}
