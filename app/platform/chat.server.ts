import type { ChatSend } from "@contract/chat";
import type { PlatformClient } from "./client.server";
import { pathSegment } from "./client.server";
import { receiptSchema } from "./chat";

/** POST /chat/completions, streamed; `signal` is the browser request's, so a closed tab aborts it upstream. */
export function sendChat(api: PlatformClient, body: ChatSend, signal: AbortSignal) {
  return api.send("POST", "/chat/completions", { ...body, stream: true }, signal);
}

export function chatReceipt(api: PlatformClient, id: string) {
  return api.call("GET", `/chat/receipts/${pathSegment(id)}`, receiptSchema, "Failed to load receipt");
}
