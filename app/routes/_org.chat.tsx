import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useRevalidator, useSearchParams } from "@remix-run/react";
import { Code2, SendHorizontal, Square } from "lucide-react";
import type { FormEvent, KeyboardEvent, RefObject } from "react";
import { useCallback, useEffect, useRef, useState } from "react";
import { DialogLink } from "~/components/UrlDialog";
import { API_DIALOG, ApiExamplesDialog } from "~/features/chat/ApiExamplesDialog";
import { ChatMessageView } from "~/features/chat/ChatMessageView";
import { followsAfterScroll } from "~/features/chat/follow";
import { apiBaseUrl } from "~/features/chat/hosts";
import type { ChatMessage } from "~/features/chat/messages";
import { messageId, truncateAfter } from "~/features/chat/messages";
import { ModelSelector } from "~/features/chat/ModelSelector";
import { usePageOrganizationId } from "~/features/auth/PageOrganizationField";
import { NewChatButton } from "~/features/chat/NewChatButton";
import type { RetryStatus } from "~/features/chat/retry";
import { isUnavailableStatus, REMOVED_NOTICE, RETRY_NOTICES, retryChip, UNAVAILABLE_NOTICES } from "~/features/chat/retry";
import type { ReplyEnd } from "~/features/chat/use-chat-stream";
import { useChatStream, useRetryCountdown } from "~/features/chat/use-chat-stream";
import { statusOf } from "~/features/models/status";
import { useModelStatus } from "~/features/models/use-model-status";
import { useFocusOnRemoval } from "~/lib/focus-on-removal";
import { composing } from "~/lib/ime";
import { useTimeZone } from "~/lib/use-time-zone";
import { listModels, modelMetrics, modelStatuses } from "~/platform/models.server";
import { requireAccess } from "~/session.server";
import type { RouteHandle } from "~/lib/route-handle";
import { Alert } from "~/components/Alert";

export const handle: RouteHandle = { title: "Chat" };

/** SPEC §5 and §9: the chat input grows up to 4 rows. */
const MAX_INPUT_ROWS = 4;

/** Shown while a send has had no first token for `WAIT_NOTICE_MS` (SPEC has no text for it). */
const WAITING_NOTICE = "Waiting for the model… It has not started to answer yet. Stop ends the wait.";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { api } = await requireAccess("organization", request, context);
  const [models, status, metrics] = await Promise.all([listModels(api, "Failed to load available models"), modelStatuses(api), modelMetrics(api)]);
  const list = models.ok ? models.models : [];
  const asked = new URL(request.url).searchParams.get("model");
  // The model query parameter counts only when it names a known model; otherwise the first one.
  const initialModel = list.find((m) => m.name === asked)?.name ?? list[0]?.name ?? null;
  const { app: appHostPrefix, api: apiHostPrefix } = context.hostPrefixes;
  return {
    models: list,
    modelsError: models.ok ? null : models.error,
    status,
    // The selector's figure (issue 17): the last hour's p50 time to first token of this organization's requests.
    firstToken: metrics ? Object.fromEntries(Object.values(metrics).map((m) => [m.name, m.lastHour.p50TtftMs])) : null,
    initialModel,
    apiBase: apiBaseUrl(request.url, appHostPrefix, apiHostPrefix),
  };
}

/**
 * Stop, shown while a reply streams: Send takes its place when the reply ends. Focus never falls to the
 * page with it: pressing Stop moves it to the message box, and so does the reply ending on its own while
 * Stop has focus (checked as the button leaves, before the browser drops its focus).
 */
function StopButton({ onStop, inputRef }: { onStop: () => void; inputRef: RefObject<HTMLTextAreaElement> }) {
  const button = useRef<HTMLButtonElement>(null);
  useFocusOnRemoval(button, inputRef);
  return (
    <button type="button" ref={button} className="btn btn-error" onClick={onStop}>
      <Square className="size-4" aria-hidden />
      Stop
    </button>
  );
}

/**
 * A pending automatic retry (SPEC §4, §8): its notice, the 'Retrying in {n}s' chip and Cancel. Only the
 * notice is live: the chip changes every second, and a screen reader would read each one. When the
 * retry starts with Cancel focused, focus goes to the message box rather than the page.
 */
function RetryNotice({
  status,
  secondsLeft,
  onCancel,
  inputRef,
}: {
  status: RetryStatus;
  secondsLeft: number;
  onCancel: () => void;
  inputRef: RefObject<HTMLTextAreaElement>;
}) {
  const cancel = useRef<HTMLButtonElement>(null);
  useFocusOnRemoval(cancel, inputRef);
  return (
    <div className="alert alert-warning">
      <span role="status">{RETRY_NOTICES[status]}</span>
      <span className="badge badge-neutral whitespace-nowrap">{retryChip(secondsLeft)}</span>
      <button type="button" ref={cancel} className="btn btn-neutral btn-xs" onClick={onCancel}>
        Cancel<span className="sr-only"> retry</span>
      </button>
    </div>
  );
}

/** A reply's answer as the page renders it (its Markdown as text, one space between blocks). */
function renderedAnswer(list: HTMLElement | null, id: string): string {
  const answer = list?.querySelector<HTMLElement>(`[data-message-id="${CSS.escape(id)}"] [data-answer]`);
  return (answer?.innerText ?? "").replace(/\s+/g, " ").trim();
}

export default function ChatPage() {
  const { models, modelsError, status: initialStatus, firstToken, initialModel, apiBase } = useLoaderData<typeof loader>();
  const status = useModelStatus(initialStatus);
  const timeZone = useTimeZone();
  const [params] = useSearchParams();
  const [model, setModel] = useState<string | null>(initialModel);
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [input, setInput] = useState("");
  // Each announcement is a new node (keyed by its count), so the same words twice ("Reply stopped") are read twice.
  const [announcement, setAnnouncementState] = useState({ text: "", count: 0 });
  const setAnnouncement = useCallback((text: string) => setAnnouncementState((last) => ({ text, count: last.count + 1 })), []);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const pickerRef = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLDivElement>(null);
  /** The user is at (or near) the bottom of the list: a streaming reply is followed only then. */
  const following = useRef(true);
  /** The message the user typed last, taken back into the box if its model turns out removed. */
  const lastTyped = useRef<string | null>(null);

  // The live region says when a reply ends, with its answer (the part that came, when stopped), as the
  // page shows it: read from the rendered reply once it is on the page, so no Markdown marks are read out.
  const [ended, setEnded] = useState<ReplyEnd | null>(null);
  const onEnded = useCallback((end: ReplyEnd) => setEnded(end), []);
  useEffect(() => {
    if (!ended) return;
    setEnded(null);
    const answer = ended.message ? renderedAnswer(list.current, ended.message.id).slice(0, 500) : "";
    if (ended.kind === "finished" && ended.message.cutAtLimit) setAnnouncement(`Reply stopped at its length limit: ${answer}`);
    else if (ended.kind === "finished") setAnnouncement(`Reply finished: ${answer}`);
    else setAnnouncement(answer ? `Reply stopped: ${answer}` : "Reply stopped");
  }, [ended, setAnnouncement]);
  const chat = useChatStream(setMessages, onEnded, (name) => statusOf(status, name));
  const retryLeft = useRetryCountdown(chat.retry, (retry) => void chat.resume(retry));

  // A warm-up retry stops when the poll says the model is down for longer (maintenance, offline, standby).
  const { retry: pendingRetry, stopRetryAs } = chat;
  const pendingStatus = pendingRetry && pendingRetry.status === 503 ? statusOf(status, pendingRetry.model) : null;
  useEffect(() => {
    if (isUnavailableStatus(pendingStatus)) stopRetryAs(pendingStatus);
  }, [pendingStatus, stopRetryAs]);

  // A send that did nothing: the message just typed goes back into the box, to send again.
  const putBackLastTyped = useCallback((history: ChatMessage[]) => {
    const last = history.at(-1);
    if (last && last.id === lastTyped.current && !inputRef.current?.value) {
      setMessages((list) => list.filter((m) => m.id !== last.id));
      setInput(last.content);
    }
  }, []);
  // A removed model (audit N L3): the list is reloaded without it, nothing stays chosen, the message
  // goes back, and focus goes to the picker to choose another.
  const { removed, stale } = chat;
  const { revalidate } = useRevalidator();
  useEffect(() => {
    if (!removed) return;
    setModel((current) => (current === removed.model ? null : current));
    revalidate();
    putBackLastTyped(removed.history);
    pickerRef.current?.focus();
  }, [removed, revalidate, putBackLastTyped]);
  // A send from a page of an organization no longer active: the page loads again, so that it shows the
  // active organization as the refusal says (or goes to /welcome, with none left), and the message goes back.
  useEffect(() => {
    if (!stale) return;
    revalidate();
    putBackLastTyped(stale.history);
  }, [stale, revalidate, putBackLastTyped]);

  // Follow the list's growth (a streaming reply) only while the user is at its bottom, scrolling the
  // list itself: scrolling up to read stays put, and the page never scrolls.
  useEffect(() => {
    const el = list.current;
    if (el && following.current) el.scrollTop = el.scrollHeight;
  }, [messages]);
  // The user leaves the bottom by scrolling up, by any amount; scrolling down to it follows again.
  const lastTop = useRef(0);
  const onListScroll = () => {
    const el = list.current;
    if (!el) return;
    following.current = followsAfterScroll(following.current, lastTop.current, el);
    lastTop.current = el.scrollTop;
  };

  // Esc stops a reply (unless a dialog is open: Esc closes it first).
  const { busy, stop } = chat;
  const dialogOpen = params.get("dialog") !== null;
  useEffect(() => {
    if (!busy || dialogOpen) return;
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (e.key === "Escape" && !composing(e)) stop();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [busy, dialogOpen, stop]);

  // Another organization made active (the sidebar's select, or the page loaded again after a stale send)
  // starts a fresh conversation: its messages were the other one's, and the next send, a pending retry or
  // the error's Retry would have sent them to this one, which paid for the whole prompt. A reply still
  // coming is stopped. A stale send's refusal stays, saying why the page changed.
  const organization = usePageOrganizationId();
  const conversationOf = useRef(organization);
  const { cancelRetry: dropPending, dismissError } = chat;
  useEffect(() => {
    if (conversationOf.current === organization) return;
    conversationOf.current = organization;
    stop();
    dropPending();
    if (!stale) dismissError();
    setMessages([]);
    following.current = true;
  }, [organization, stop, dropPending, dismissError, stale]);

  const send = (history: ChatMessage[]) => {
    if (!model) return;
    following.current = true; // a message sent brings the list to its end, to show the reply coming
    setMessages(history);
    void chat.run(history, model);
    inputRef.current?.focus();
  };

  const submit = (e?: FormEvent) => {
    e?.preventDefault();
    const text = input.trim();
    if (!text || !model || chat.busy) return;
    setInput("");
    const typed: ChatMessage = { id: messageId(), role: "user", content: text, reasoning: "", timestamp: Date.now(), status: "done" };
    lastTyped.current = typed.id;
    send([...messages, typed]);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === "Enter" && !e.shiftKey && !composing(e.nativeEvent)) {
      e.preventDefault();
      submit();
    }
  };

  const chooseModel = (name: string) => {
    setModel(name);
    chat.cancelRetry(); // a model change cancels a pending retry (SPEC §4)
  };

  // Cancel takes its notice away: focus goes to the message box, and a screen reader hears why the notice went.
  const cancelRetry = () => {
    chat.cancelRetry();
    setAnnouncement("Retry cancelled.");
    inputRef.current?.focus();
  };

  const retryFailed = () => {
    if (!chat.failed) return;
    void chat.run(chat.failed.history, chat.failed.model);
    inputRef.current?.focus();
  };

  /** After a deletion, where focus goes: these messages' Delete buttons in turn (the first enabled), else the message box. */
  const focusAfterDelete = useRef<string[] | null>(null);
  useEffect(() => {
    const candidates = focusAfterDelete.current;
    if (!candidates) return;
    focusAfterDelete.current = null;
    for (const id of candidates) {
      const button = list.current?.querySelector<HTMLButtonElement>(`[data-message-id="${CSS.escape(id)}"] button[data-delete]`);
      if (button && !button.disabled) return button.focus();
    }
    inputRef.current?.focus();
  }, [messages]);

  const deleteMessage = (id: string) => {
    // Focus would fall to the page with the button: it goes to the next message's Delete, or the previous one's.
    const index = messages.findIndex((x) => x.id === id);
    focusAfterDelete.current = [messages[index + 1]?.id, messages[index - 1]?.id].filter((x): x is string => Boolean(x));
    setMessages((list) => list.filter((x) => x.id !== id));
    // A pending retry, or the error's Retry, would send the history with the deleted message still in it.
    if (chat.retry || chat.failed) chat.cancelRetry();
  };

  // Stable for the memoized messages: a streamed chunk re-renders (and re-parses) only the reply it belongs to.
  const latest = useRef({ deleteMessage, regenerate: (id: string) => send(truncateAfter(messages, id)) });
  latest.current = { deleteMessage, regenerate: (id: string) => send(truncateAfter(messages, id)) };
  const onDelete = useCallback((id: string) => latest.current.deleteMessage(id), []);
  const onRegenerate = useCallback((id: string) => latest.current.regenerate(id), []);

  // What was typed in the box stays: it may be the new chat's first message.
  const newChat = () => {
    chat.cancelRetry();
    chat.dismissError();
    setMessages([]);
    following.current = true;
    setAnnouncement("New chat started.");
    // The box is disabled while no model is chosen (one removed, say): the picker is where to go next.
    (model ? inputRef : pickerRef).current?.focus();
  };

  const rows = Math.min(MAX_INPUT_ROWS, Math.max(1, input.split("\n").length));
  const selected = models.find((m) => m.name === model);

  return (
    <div className="card flex h-[calc(100vh-9rem)] min-h-[28rem] flex-col bg-base-100 shadow-sm">
      <div className="flex flex-wrap items-center justify-between gap-3 border-b border-base-300 p-4">
        <ModelSelector models={models} selected={model} status={status} firstToken={firstToken} onSelect={chooseModel} buttonRef={pickerRef} />
        <div className="flex flex-wrap items-center gap-2">
          {/* Not while a reply comes: Stop first, so nothing half-received is dropped unseen. */}
          {messages.length > 0 ? <NewChatButton onConfirm={newChat} disabled={chat.busy} /> : null}
          <DialogLink name={API_DIALOG} className="btn btn-ghost btn-sm" disabled={!selected}>
            <Code2 className="size-4" aria-hidden />
            API examples
          </DialogLink>
        </div>
      </div>

      {modelsError && (
        <Alert kind="error" className="m-4">
          {modelsError}
        </Alert>
      )}
      <noscript>
        <div className="alert alert-warning m-4">Chat streams replies in the page: turn on JavaScript to use it.</div>
      </noscript>

      <div ref={list} onScroll={onListScroll} className="flex-1 overflow-y-auto p-4">
        {messages.length === 0 ? (
          <div className="grid h-full place-items-center text-center text-base-content/60">
            <p>{selected ? `Send a message to start chatting with ${selected.displayName}.` : "Select a model to start chatting."}</p>
          </div>
        ) : (
          <ol className="space-y-2" aria-label="Messages">
            {messages.map((m) => (
              <ChatMessageView key={m.id} message={m} timeZone={timeZone} busy={chat.busy} onDelete={onDelete} onRegenerate={onRegenerate} />
            ))}
          </ol>
        )}
      </div>

      <div aria-live="polite" className="sr-only">
        <span key={announcement.count}>{announcement.text}</span>
      </div>

      <div className="space-y-2 border-t border-base-300 p-4">
        {/* Always there, so a screen reader hears the wait begin; empty (and hidden) otherwise. */}
        <div role="status" className="empty:hidden">
          {chat.waiting && (
            <div className="alert alert-info">
              <span className="loading loading-dots loading-sm" aria-hidden />
              <span>{WAITING_NOTICE}</span>
            </div>
          )}
        </div>
        {chat.retry && retryLeft !== null && <RetryNotice status={chat.retry.status} secondsLeft={retryLeft} onCancel={cancelRetry} inputRef={inputRef} />}
        {chat.removed && (
          <Alert kind="warning">
            <span>{REMOVED_NOTICE}</span>
          </Alert>
        )}
        {chat.unavailable && (
          <div role="status" className="alert alert-warning">
            <span>{UNAVAILABLE_NOTICES[chat.unavailable]}</span>
          </div>
        )}
        {chat.error && (
          <Alert kind="error">
            <span>{chat.error}</span>
            <div className="flex gap-2">
              {chat.failed && (
                <button type="button" className="btn btn-neutral btn-xs" onClick={retryFailed}>
                  Retry
                </button>
              )}
              <button
                type="button"
                className="btn btn-neutral btn-xs"
                onClick={() => {
                  chat.dismissError();
                  inputRef.current?.focus();
                }}
              >
                Dismiss
              </button>
            </div>
          </Alert>
        )}
        <form className="flex items-end gap-2" onSubmit={submit}>
          <label htmlFor="chat-input" className="sr-only">
            Message
          </label>
          <textarea
            id="chat-input"
            ref={inputRef}
            className="textarea textarea-bordered flex-1 resize-none"
            rows={rows}
            placeholder={model ? "Type a message… (Enter to send, Shift+Enter for a new line)" : "Select a model first"}
            value={input}
            onChange={(e) => setInput(e.target.value)}
            onKeyDown={onKeyDown}
            disabled={!model}
            required
          />
          {chat.busy ? (
            <StopButton
              inputRef={inputRef}
              onStop={() => {
                chat.stop();
                inputRef.current?.focus();
              }}
            />
          ) : (
            <button type="submit" className="btn btn-primary" disabled={!model || !input.trim()}>
              <SendHorizontal className="size-4" aria-hidden />
              Send
            </button>
          )}
        </form>
      </div>

      {selected && <ApiExamplesDialog baseUrl={apiBase} model={selected.name} />}
    </div>
  );
}
