/** The multimodal demo's data and URL carrying (SPEC §2 /multimodal-*, §3 Chat message). */

export const MODALITIES = ["text", "image", "video", "audio"] as const;
export type Modality = (typeof MODALITIES)[number];
export const CHAT_REPLY_DELAY_MS = 1_000;
export const TOOL_CALL_DELAY_MS = 2_000;

export type ToolCallStatus = "running" | "completed" | "failed";
export interface ToolCall {
  id: string;
  name: string;
  status: ToolCallStatus;
}
export interface ChatMedia {
  type: "image" | "video" | "audio";
  url: string;
}
export interface ChatMessage {
  id: string;
  role: "user" | "assistant";
  content: string;
  timestamp: number;
  media?: ChatMedia[];
  toolCalls?: ToolCall[];
}

/** The chat URL carrying a prompt and its modalities, so it survives reloads and works as a link. */
export function multimodalChatHref(prompt: string, modalities: readonly Modality[] = MODALITIES): string {
  const params = new URLSearchParams({ prompt: prompt.trim(), modalities: modalities.join(",") });
  return `/multimodal-chat?${params.toString()}`;
}

/** Modalities from the URL: known names only, in canonical order; all four when absent. */
export function parseModalities(value: string | null | undefined): Modality[] {
  if (value == null) return [...MODALITIES];
  const asked = new Set(value.split(",").map((s) => s.trim()));
  return MODALITIES.filter((m) => asked.has(m));
}

export function toolCallsFor(modalities: readonly Modality[], idPrefix: string): ToolCall[] {
  return modalities.filter((m) => m !== "text").map((m) => ({ id: `${idPrefix}-${m}`, name: `generate_${m}`, status: "running" }));
}

/** A placeholder picture for a simulated result: an SVG data URL (allowed by the CSP's img-src data:). */
export function placeholderImage(label: string, hue = 250): string {
  const safe = label.replace(/[<>&"]/g, "").slice(0, 40);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="512" height="320" viewBox="0 0 512 320"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue},80%,62%)"/><stop offset="1" stop-color="hsl(${(hue + 60) % 360},80%,48%)"/></linearGradient></defs><rect width="512" height="320" fill="url(#g)"/><circle cx="400" cy="90" r="44" fill="rgba(255,255,255,.55)"/><path d="M0 250 L140 150 L250 230 L350 170 L512 260 L512 320 L0 320 Z" fill="rgba(255,255,255,.35)"/><text x="24" y="296" font-family="sans-serif" font-size="18" fill="white">${safe}</text></svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

export function mediaFor(toolCalls: readonly ToolCall[], prompt: string): ChatMedia[] {
  return toolCalls.map((call) => {
    const type = call.name.replace("generate_", "") as ChatMedia["type"];
    return { type, url: placeholderImage(`${type}: ${prompt}`, type === "image" ? 250 : type === "video" ? 330 : 160) };
  });
}

export function cannedMultimodalReply(prompt: string, modalities: readonly Modality[]): string {
  const extra = modalities.filter((m) => m !== "text");
  const topic = prompt.trim().slice(0, 80);
  if (extra.length === 0) return `Here's a written answer about “${topic}”. This prototype uses canned replies, so no model was called.`;
  return `Working on “${topic}”. I'll write the text and create ${extra.join(", ")} for you. This prototype simulates the results.`;
}

/** A reply is finished once none of its tool calls is still running. */
export function isFinishedReply(message: ChatMessage): boolean {
  return message.role === "assistant" && !message.toolCalls?.some((c) => c.status === "running");
}

/** What the live region says of a finished reply: its text, then how each tool call ended. */
export function replyAnnouncement(message: ChatMessage): string {
  const calls = message.toolCalls?.length ? ` ${message.toolCalls.map((c) => `${c.name} ${c.status}`).join(", ")}.` : "";
  return `Reply finished: ${message.content}${calls}`;
}
