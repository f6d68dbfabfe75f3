import { Bot, Brain, RefreshCw, Receipt as ReceiptIcon, Trash2, User } from "lucide-react";
import { memo, useId, useState } from "react";
import { formatDateTime } from "~/lib/datetime";
import type { Receipt } from "~/platform/chat";
import { Markdown } from "./Markdown";
import type { ChatMessage } from "./messages";
import { LENGTH_LIMIT_NOTE } from "./messages";
import { loadReceipt } from "./receipt";
import { splitReasoning } from "./reasoning";

interface Props {
  message: ChatMessage;
  timeZone: string;
  busy: boolean;
  onDelete: (id: string) => void;
  onRegenerate: (id: string) => void;
}

/** Memoized: while a reply streams, the other messages (and their markdown) are not rendered again. */
export const ChatMessageView = memo(function ChatMessageView({ message, timeZone, busy, onDelete, onRegenerate }: Props) {
  const isUser = message.role === "user";
  const streaming = message.status === "streaming";
  const split = isUser ? null : splitReasoning(message.content, message.reasoning, streaming);
  return (
    <li data-message-id={message.id} className={`chat ${isUser ? "chat-end" : "chat-start"}`} aria-label={isUser ? "Your message" : "Assistant message"}>
      <div className="chat-image avatar avatar-placeholder">
        <div className={`w-8 rounded-full ${isUser ? "bg-primary text-primary-content" : "bg-secondary text-secondary-content"}`}>
          {isUser ? <User className="size-4" aria-hidden /> : <Bot className="size-4" aria-hidden />}
        </div>
      </div>
      <div className="chat-header mb-1 flex items-center gap-2 text-xs text-base-content/60">
        {isUser ? "You" : (message.model ?? "Assistant")}
        <time dateTime={new Date(message.timestamp).toISOString()}>{formatDateTime(message.timestamp, timeZone)}</time>
      </div>
      <div
        className={`chat-bubble max-w-[min(80ch,100%)] min-w-0 [overflow-wrap:anywhere] ${isUser ? "chat-bubble-primary" : "bg-base-200 text-base-content"}`}
      >
        {isUser ? (
          <p className="whitespace-pre-wrap">{message.content}</p>
        ) : (
          <>
            {split && (split.reasoning || split.thinking) && <Thinking reasoning={split.reasoning} thinking={streaming && split.thinking} />}
            {split?.answer ? (
              <div data-answer>
                <Markdown text={split.answer} />
              </div>
            ) : streaming && !split?.thinking ? (
              <span className="loading loading-dots loading-sm" role="img" aria-label="Waiting for the reply" />
            ) : null}
            {message.cutAtLimit && <p className="mt-2 text-xs italic text-base-content/60">{LENGTH_LIMIT_NOTE}</p>}
            {message.status === "stopped" && <p className="mt-2 text-xs italic text-base-content/60">Stopped.</p>}
            {message.status === "error" && <p className="mt-2 text-xs italic text-error">The reply broke off.</p>}
          </>
        )}
      </div>
      <div className="chat-footer mt-1 flex gap-1">
        {isUser && (
          <button type="button" className="btn btn-ghost btn-xs" onClick={() => onRegenerate(message.id)} disabled={busy}>
            <RefreshCw className="size-3" aria-hidden />
            Regenerate
          </button>
        )}
        {!isUser && message.receiptId && !streaming && <ReceiptToggle id={message.receiptId} />}
        <button
          type="button"
          className="btn btn-ghost btn-xs"
          data-delete
          onClick={() => onDelete(message.id)}
          disabled={busy && streaming}
          aria-label={`Delete ${isUser ? "your message" : "reply"}`}
        >
          <Trash2 className="size-3" aria-hidden />
          Delete
        </button>
      </div>
    </li>
  );
});

/** The reasoning block, collapsed by default; while the model is still thinking it says so. */
function Thinking({ reasoning, thinking }: { reasoning: string; thinking: boolean }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <div className="mb-2 rounded-box border border-base-300 bg-base-100/60">
      <button type="button" className="btn btn-ghost btn-xs w-full justify-start" aria-expanded={open} aria-controls={id} onClick={() => setOpen(!open)}>
        <Brain className="size-3" aria-hidden />
        {open ? "Hide thinking" : "Show thinking"}
        {thinking && <span className="loading loading-dots loading-xs" role="img" aria-label="still thinking" />}
      </button>
      {open && (
        <div id={id} className="whitespace-pre-wrap border-t border-base-300 px-3 py-2 text-sm text-base-content/70">
          {reasoning}
        </div>
      )}
    </div>
  );
}

function ReceiptToggle({ id }: { id: string }) {
  const [receipt, setReceipt] = useState<Receipt | null>(null);
  const [failure, setFailure] = useState("");
  const [state, setState] = useState<"closed" | "loading" | "open" | "failed">("closed");
  const toggle = async () => {
    if (state === "open" || state === "failed") return setState("closed");
    setState("loading");
    const loaded = await loadReceipt(id);
    if (loaded.ok) setReceipt(loaded.receipt);
    else setFailure(loaded.message);
    setState(loaded.ok ? "open" : "failed");
  };
  return (
    <div className="dropdown dropdown-top">
      <button type="button" className="btn btn-ghost btn-xs" aria-expanded={state === "open"} onClick={() => void toggle()}>
        <ReceiptIcon className="size-3" aria-hidden />
        {state === "loading" ? "Loading..." : "Receipt"}
      </button>
      {state === "failed" && <span className="text-xs text-error">{failure}</span>}
      {state === "open" && receipt && (
        <dl className="card card-compact mt-1 grid grid-cols-2 gap-x-4 gap-y-1 bg-base-100 p-3 text-xs shadow" aria-label="Receipt">
          <dt>Input tokens</dt>
          <dd className="text-right tabular-nums">{receipt.inputTokens.toLocaleString("en-US")}</dd>
          <dt>Output tokens</dt>
          <dd className="text-right tabular-nums">{receipt.outputTokens.toLocaleString("en-US")}</dd>
          <dt>Reasoning tokens</dt>
          <dd className="text-right tabular-nums">{receipt.reasoningTokens.toLocaleString("en-US")}</dd>
          <dt>Cost</dt>
          <dd className="text-right tabular-nums">${receipt.cost.toFixed(6)}</dd>
          <dt>Counted by</dt>
          <dd className="text-right">{receipt.estimated ? "Estimated (tokenizer)" : "The model's own usage"}</dd>
          {receipt.outcome !== "completed" && (
            <>
              <dt>Billed as</dt>
              <dd className="text-right">{receipt.outcome === "stopped" ? "Stopped: what was generated" : "Broken off: what was generated"}</dd>
            </>
          )}
        </dl>
      )}
    </div>
  );
}
