import { useCallback, useEffect, useRef, useState } from "react";
import type { ChatMessage } from "./messages";
import { apiErrorMessage, messageId, toWire } from "./messages";
import type { RetryStatus } from "./retry";
import { isRetryStatus, RETRY_SECONDS, secondsLeft } from "./retry";
import { createSseParser, deltaOf } from "./sse";

export interface PendingRetry {
  status: RetryStatus;
  seconds: number;
  startedAt: number;
  history: ChatMessage[];
  model: string;
}

type SetMessages = (update: (messages: ChatMessage[]) => ChatMessage[]) => void;

/**
 * Sends a conversation to the console's resource route and streams the reply into the message list
 * (SPEC §4): 503 and 429 schedule a retry after 30 s / 5 s, Stop aborts the request all the way to
 * the upstream, and a finished reply is handed to `onFinished` (for the live region).
 */
export function useChatStream(setMessages: SetMessages, onFinished: (message: ChatMessage) => void) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [retry, setRetry] = useState<PendingRetry | null>(null);
  const controller = useRef<AbortController | null>(null);
  const finished = useRef(onFinished);
  finished.current = onFinished;

  const run = useCallback(
    async (history: ChatMessage[], model: string) => {
      controller.current?.abort();
      const abort = new AbortController();
      controller.current = abort;
      setBusy(true);
      setError(null);
      setRetry(null);
      let assistant: ChatMessage | null = null;
      const update = (patch: Partial<ChatMessage>) => {
        if (!assistant) return;
        assistant = { ...assistant, ...patch };
        const next = assistant;
        setMessages((list) => list.map((m) => (m.id === next.id ? next : m)));
      };
      try {
        const response = await fetch("/resources/chat", {
          method: "POST",
          headers: { "content-type": "application/json", accept: "text/event-stream" },
          body: JSON.stringify({ model, messages: toWire(history) }),
          signal: abort.signal,
        });
        if (!response.ok) {
          if (isRetryStatus(response.status)) {
            await response.body?.cancel().catch(() => {});
            setRetry({ status: response.status, seconds: RETRY_SECONDS[response.status], startedAt: Date.now(), history, model });
          } else {
            setError(await apiErrorMessage(response));
          }
          return;
        }
        if (!response.body) {
          setError("No response body");
          return;
        }
        assistant = {
          id: messageId(),
          role: "assistant",
          content: "",
          reasoning: "",
          timestamp: Date.now(),
          status: "streaming",
          receiptId: response.headers.get("x-receipt-id") ?? undefined,
          model,
        };
        const first = assistant;
        setMessages((list) => [...list, first]);
        const parser = createSseParser();
        const reader = response.body.getReader();
        let content = "";
        let reasoning = "";
        let done = false;
        while (!done) {
          const { value, done: ended } = await reader.read();
          const events = ended ? parser.end() : parser.push(value);
          for (const event of events) {
            if (event.type === "done") {
              done = true;
              break;
            }
            const delta = deltaOf(event.chunk);
            content += delta.content;
            reasoning += delta.reasoning;
          }
          if (content !== assistant.content || reasoning !== assistant.reasoning) update({ content, reasoning });
          if (ended) break;
        }
        if (done) {
          reader.cancel().catch(() => {});
          update({ status: "done" });
          finished.current(assistant);
        } else {
          update({ status: "error" });
          setError("Failed to send message");
        }
      } catch {
        if (abort.signal.aborted) {
          update({ status: "stopped" });
        } else {
          update({ status: "error" });
          setError("Failed to send message");
        }
      } finally {
        if (controller.current === abort) {
          controller.current = null;
          setBusy(false);
        }
      }
    },
    [setMessages],
  );

  const stop = useCallback(() => {
    controller.current?.abort();
    setRetry(null);
  }, []);

  const cancelRetry = useCallback(() => setRetry(null), []);

  useEffect(() => () => controller.current?.abort(), []);

  return { run, stop, busy, error, setError, retry, cancelRetry };
}

/** Seconds left of a pending retry, firing `onDone` once at zero (a new retry or null cancels it). */
export function useRetryCountdown(retry: PendingRetry | null, onDone: (retry: PendingRetry) => void): number | null {
  const [left, setLeft] = useState<number | null>(retry ? retry.seconds : null);
  const done = useRef(onDone);
  done.current = onDone;
  useEffect(() => {
    if (!retry) {
      setLeft(null);
      return;
    }
    setLeft(secondsLeft(retry.seconds, retry.startedAt, Date.now()));
    const tick = setInterval(() => {
      const remaining = secondsLeft(retry.seconds, retry.startedAt, Date.now());
      setLeft(remaining);
      if (remaining === 0) {
        clearInterval(tick);
        done.current(retry);
      }
    }, 250);
    return () => clearInterval(tick);
  }, [retry]);
  return left;
}

