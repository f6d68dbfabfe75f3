import { useEffect, useRef, useState } from "react";
import type { ReactNode } from "react";
import { ChatBubble } from "./components";
import type { ChatMessage } from "./multimodal";
import { isFinishedReply, replyAnnouncement } from "./multimodal";

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
 * any), then the typing bubble while a reply is pending. `followLatest` scrolls the newest into view
 * (smoothly unless the user asks for reduced motion). Each reply is announced in a polite live region
 * once finished (its tool calls done), as /chat does; the messages it starts with (a greeting) are not.
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
    if (!followLatest) return;
    const reduced = window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;
    list.current?.lastElementChild?.scrollIntoView?.({ block: "end", behavior: reduced ? "auto" : "smooth" });
  }, [messages, followLatest]);
  const [announcement, setAnnouncement] = useState("");
  const announced = useRef<Set<string> | null>(null);
  useEffect(() => {
    const finished = messages.filter(isFinishedReply);
    if (!announced.current) {
      announced.current = new Set(finished.map((m) => m.id));
      return;
    }
    const seen = announced.current;
    const fresh = finished.filter((m) => !seen.has(m.id));
    if (fresh.length === 0) return;
    for (const m of fresh) seen.add(m.id);
    setAnnouncement(fresh.map(replyAnnouncement).join(" "));
  }, [messages]);
  return (
    <>
      <ol ref={list} className={className} aria-label="Messages">
        {messages.map((m) => (
          <ChatBubble key={m.id} message={m} actions={actions?.(m)} />
        ))}
        {pending ? <TypingBubble label={pendingLabel} /> : null}
      </ol>
      <div aria-live="polite" className="sr-only">
        {announcement}
      </div>
    </>
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
