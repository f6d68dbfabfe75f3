import { useCallback, useEffect, useRef, useState } from "react";
import type { ChatMessage } from "./messages";
import { apiError, messageId, toWire } from "./messages";
import { pageOrganizationHeaders } from "~/features/auth/page-organization";
import { usePageOrganizationId } from "~/features/auth/PageOrganizationField";
import type { ModelStatus } from "~/features/models/status";
import type { RetryStatus, UnavailableStatus } from "./retry";
import { classifyFailure, mayRetryAgain, RETRY_SECONDS, secondsLeft } from "./retry";
import { frameBatch } from "./frame-batch";
import type { ReplyText } from "./read-reply";
import { readReply } from "./read-reply";
import { readUntilSilent } from "./silence";

export interface PendingRetry {
  status: RetryStatus;
  seconds: number;
  startedAt: number;
  history: ChatMessage[];
  model: string;
  /** Which automatic retry of the send this is: 1 for the first. */
  attempt: number;
}

/** A send given up after its automatic retries, which the error's Retry button sends again. */
export interface FailedSend {
  history: ChatMessage[];
  model: string;
}

/**
 * A send refused because the page was for an organization no longer active (made active in another tab,
 * or the user removed from it): nothing was sent, and the page's data is out of date.
 */
export interface StaleSend {
  history: ChatMessage[];
}

/** A send answered that its model does not exist any more (deleted while the page was open). */
export interface RemovedModel {
  model: string;
  history: ChatMessage[];
}

/**
 * How long a send may go without a first token before the chat says it is waiting for the model
 * (audit N M7): a cold or busy model can take minutes, and until then the page showed nothing but
 * the question and Stop. Most models answer well within it.
 */
export const WAIT_NOTICE_MS = 5_000;

type SetMessages = (update: (messages: ChatMessage[]) => ChatMessage[]) => void;

/** How a reply ended, for the live region: finished whole, or stopped with what had come (null: nothing yet). */
export type ReplyEnd = { kind: "finished"; message: ChatMessage } | { kind: "stopped"; message: ChatMessage | null };

/**
 * Sends a conversation to the console's resource route and streams the reply into the message list
 * (SPEC §4): 429 and a warming-up 503 schedule a retry after 5 s / 30 s (at most
 * `MAX_AUTOMATIC_RETRIES` in a row, by status, then the error with a manual Retry), a model under maintenance,
 * offline or on standby stops with its status and a removed one is reported (`classifyFailure`), Stop
 * aborts the request all the way to the upstream, `waiting` says no token has come for a while, and a
 * finished or stopped reply is handed to `onEnded` (for the live region).
 */
export function useChatStream(setMessages: SetMessages, onEnded: (end: ReplyEnd) => void, statusOfModel: (model: string) => ModelStatus) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [retry, setRetry] = useState<PendingRetry | null>(null);
  const [unavailable, setUnavailable] = useState<UnavailableStatus | null>(null);
  const [failed, setFailed] = useState<FailedSend | null>(null);
  const [removed, setRemoved] = useState<RemovedModel | null>(null);
  const [stale, setStale] = useState<StaleSend | null>(null);
  const [waiting, setWaiting] = useState(false);
  const controller = useRef<AbortController | null>(null);
  const ended = useRef(onEnded);
  ended.current = onEnded;
  const statusOf = useRef(statusOfModel);
  statusOf.current = statusOfModel;
  // The organization the page shows: a reply is never charged to another one made active elsewhere.
  const pageOrganization = usePageOrganizationId();
  const organizationId = useRef(pageOrganization);
  organizationId.current = pageOrganization;

  /** One send of `history`; `attempt` counts the automatic retries before it (0: the user's own send). */
  const send = useCallback(
    async (history: ChatMessage[], model: string, attempt: number) => {
      controller.current?.abort();
      const abort = new AbortController();
      controller.current = abort;
      setBusy(true);
      setError(null);
      setRetry(null);
      setUnavailable(null);
      setFailed(null);
      setRemoved(null);
      setStale(null);
      setWaiting(false);
      let waitTimer: ReturnType<typeof setTimeout> | undefined = setTimeout(() => {
        if (controller.current === abort) setWaiting(true);
      }, WAIT_NOTICE_MS);
      const endWait = () => {
        if (waitTimer === undefined) return;
        clearTimeout(waitTimer);
        waitTimer = undefined;
        setWaiting(false);
      };
      let assistant: ChatMessage | null = null;
      const update = (patch: Partial<ChatMessage>) => {
        if (!assistant) return;
        assistant = { ...assistant, ...patch };
        const next = assistant;
        setMessages((list) => list.map((m) => (m.id === next.id ? next : m)));
      };
      // The text as it streams in: one update a frame, however many reads it took.
      const streamed = frameBatch<ReplyText>(update);
      try {
        const response = await fetch("/resources/chat", {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "text/event-stream",
            ...pageOrganizationHeaders(organizationId.current),
          },
          body: JSON.stringify({ model, messages: toWire(history) }),
          signal: abort.signal,
        });
        if (!response.ok) {
          endWait();
          const { message, code } = await apiError(response);
          // Another send, or a Stop, came while the body was read: this answer is no longer the chat's. A Stop
          // leaves its controller in place, and the cut body reads as "" (a generic 429), which armed a retry.
          if (controller.current !== abort || abort.signal.aborted) return;
          const outcome = classifyFailure(response.status, message, statusOf.current(model), code);
          if (outcome.kind === "retry" && mayRetryAgain(outcome.status, attempt)) {
            setRetry({ status: outcome.status, seconds: RETRY_SECONDS[outcome.status], startedAt: Date.now(), history, model, attempt: attempt + 1 });
          } else if (outcome.kind === "retry") {
            setError(message);
            setFailed({ history, model });
          } else if (outcome.kind === "unavailable") setUnavailable(outcome.status);
          else if (outcome.kind === "removed") setRemoved({ model, history });
          else if (outcome.kind === "stale") {
            setError(message);
            setStale({ history });
          } else setError(message);
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
        const reader = response.body.getReader();
        // A connection lost without closing sends nothing, not even the keep-alives: it ends as failed.
        const reply = await readReply(readUntilSilent(reader), (text) => {
          endWait();
          streamed.push(text);
        });
        streamed.flush();
        if (reply.done) {
          reader.cancel().catch(() => {});
          update(reply.cutAtLimit ? { status: "done", cutAtLimit: true } : { status: "done" });
          ended.current({ kind: "finished", message: assistant });
        } else {
          update({ status: "error" });
          setError(reply.failure ?? "Failed to send message");
        }
      } catch {
        streamed.flush();
        if (abort.signal.aborted) {
          update({ status: "stopped" });
          ended.current({ kind: "stopped", message: assistant });
        } else {
          update({ status: "error" });
          setError("Failed to send message");
        }
      } finally {
        clearTimeout(waitTimer);
        if (controller.current === abort) {
          controller.current = null;
          setBusy(false);
          setWaiting(false);
        }
      }
    },
    [setMessages],
  );

  /** The user's send (or Regenerate, or the error's Retry): a fresh round of automatic retries. */
  const run = useCallback((history: ChatMessage[], model: string) => send(history, model, 0), [send]);

  /** The countdown of a pending retry reached zero. */
  const resume = useCallback((pending: PendingRetry) => send(pending.history, pending.model, pending.attempt), [send]);

  const stop = useCallback(() => {
    controller.current?.abort();
    setRetry(null);
  }, []);

  /**
   * Drops what waits on the chosen model: a pending retry (Cancel, another model, a message deleted
   * from the history it would send), its status notice, and the Retry of a send given up.
   */
  const cancelRetry = useCallback(() => {
    setRetry(null);
    setUnavailable(null);
    setFailed(null);
    setRemoved(null);
  }, []);

  const dismissError = useCallback(() => {
    setError(null);
    setFailed(null);
  }, []);

  /** The poll found the model down while a warm-up retry waited: show that status and stop retrying. */
  const stopRetryAs = useCallback((status: UnavailableStatus) => {
    setRetry(null);
    setUnavailable(status);
  }, []);

  useEffect(() => () => controller.current?.abort(), []);

  return { run, resume, stop, busy, waiting, error, dismissError, failed, retry, cancelRetry, unavailable, removed, stale, stopRetryAs };
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
