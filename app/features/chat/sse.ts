/** The chat stream's parser is the contract's, shared with the platform's meter. */
export { createSseParser } from "@contract/sse";
export type { SseEvent, SseParser } from "@contract/sse";
export { deltaOf } from "@contract/chat";
export type { ChatChunk } from "@contract/chat";
