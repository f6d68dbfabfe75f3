import { useEffect, useRef } from "react";
import type { ReactNode } from "react";
import { ChatBubble } from "./components";
import type { ChatMessage } from "./multimodal";

/** The assistant's 'thinking / typing' bubble: three dots, named for screen readers by `label`. */
export function TypingBubble({ label }: { label: string }) {
  return (
    <li className="chat chat-start" aria-label={label}>
      <div className="chat-bubble bg-base-100 shadow-sm">
        <span className="loading loading-dots loading-sm" aria-hidden />
      </div>
    </li>
  );
}

/**
 * The conversation of a demo chat: every message as a bubble (with `actions` under the ones that have
 * any), then the typing bubble while a reply is pending. `followLatest` scrolls the newest into view.
 */
export function MessageList({
  messages,
  pending,
  pendingLabel,
  className,
  actions,
  followLatest = false,
}: {
  messages: ChatMessage[];
  pending: boolean;
  pendingLabel: string;
  className: string;
  actions?: (message: ChatMessage) => ReactNode;
  followLatest?: boolean;
}) {
  const list = useRef<HTMLOListElement>(null);
  useEffect(() => {
    if (followLatest) list.current?.lastElementChild?.scrollIntoView?.({ block: "end", behavior: "smooth" });
  }, [messages, followLatest]);
  return (
    <ol ref={list} className={className} aria-label="Messages">
      {messages.map((m) => (
        <ChatBubble key={m.id} message={m} actions={actions?.(m)} />
      ))}
      {pending ? <TypingBubble label={pendingLabel} /> : null}
    </ol>
  );
}

/** Sends the prompt carried in the URL once, when the chat page starts (again on reload). */
export function useInitialPrompt(prompt: string, send: (prompt: string) => void) {
  const started = useRef(false);
  const latest = useRef(send);
  useEffect(() => {
    latest.current = send;
  });
  useEffect(() => {
    if (started.current || !prompt) return;
    started.current = true;
    latest.current(prompt);
  }, [prompt]);
}
