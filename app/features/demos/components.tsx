import { Link } from "@remix-run/react";
import { CheckCircle2, Loader2, Mic, MicOff, Music, PlayCircle, Volume2, X, XCircle } from "lucide-react";
import { useEffect, useState } from "react";
import type { KeyboardEvent, ReactNode, RefObject } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import { Alert } from "~/components/Alert";
import type { ChatMedia, ChatMessage, ToolCall } from "./multimodal";
import { modelPickerKind } from "./playground";
import { composing } from "~/lib/ime";
import { useTabList } from "~/lib/use-tab-list";

/** Rows for a prompt box: one per line of text, kept between `min` and `max`. */
export function promptRows(value: string, min = 3, max = 8): number {
  return Math.min(max, Math.max(min, value.split("\n").length));
}

/**
 * The rows of a growing prompt box, wrapped lines included: typed lines are the first guess (all the
 * server and a browser without JavaScript have), then the box measures what its text really takes.
 */
export function usePromptRows(box: RefObject<HTMLTextAreaElement>, value: string, min: number, max: number): number {
  const [rows, setRows] = useState(() => promptRows(value, min, max));
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    // Measured from the smallest box, so that deleting text shrinks it again.
    el.rows = min;
    const style = getComputedStyle(el);
    const lines = (el.scrollHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom)) / parseFloat(style.lineHeight);
    const typed = promptRows(value, min, max);
    const next = Number.isFinite(lines) ? Math.min(max, Math.max(typed, Math.round(lines))) : typed;
    el.rows = next;
    setRows(next);
  }, [box, value, min, max]);
  return rows;
}

/** Enter without Shift submits (when the text is not blank); Shift+Enter adds a newline (SPEC §5); the Enter that confirms an IME composition does neither. */
export function submitOnEnter(onSubmit: () => void) {
  return (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key !== "Enter" || e.shiftKey || composing(e.nativeEvent)) return;
    e.preventDefault();
    if (e.currentTarget.value.trim()) onSubmit();
  };
}

export function Breadcrumbs({ items }: { items: { label: string; to?: string }[] }) {
  return (
    <nav aria-label="Breadcrumb" className="breadcrumbs text-sm">
      <ul>
        {items.map((item) =>
          item.to ? (
            <li key={item.label}>
              <Link to={item.to}>{item.label}</Link>
            </li>
          ) : (
            <li key={item.label} aria-current="page">
              {item.label}
            </li>
          ),
        )}
      </ul>
    </nav>
  );
}

/**
 * Tabs for three models or fewer, a dropdown otherwise (SPEC §2 Playground). `disabled` while a run
 * is under way, so the picker never shows a model other than the one the run was asked with.
 */
export function ModelPicker({
  models,
  value,
  onChange,
  disabled = false,
}: {
  models: string[];
  value: string;
  onChange: (model: string) => void;
  disabled?: boolean;
}) {
  const { listProps, tabProps } = useTabList();
  if (modelPickerKind(models) === "tabs") {
    return (
      <div {...listProps} aria-label="Model" className="tabs tabs-box w-fit">
        {models.map((m) => (
          <button
            key={m}
            type="button"
            {...tabProps(m === value)}
            className={`tab ${m === value ? "tab-active" : ""}`}
            disabled={disabled}
            onClick={() => onChange(m)}
          >
            {m}
          </button>
        ))}
      </div>
    );
  }
  return (
    <label className="flex w-fit items-center gap-2">
      <span className="text-sm font-medium">Model</span>
      <select className="select select-sm" value={value} disabled={disabled} onChange={(e) => onChange(e.currentTarget.value)}>
        {models.map((m) => (
          <option key={m}>{m}</option>
        ))}
      </select>
    </label>
  );
}

export function ModelChips({ models }: { models: string[] }) {
  return (
    <ul className="flex flex-wrap gap-1" aria-label="Models">
      {models.map((m) => (
        <li key={m} className="badge badge-outline badge-sm">
          {m}
        </li>
      ))}
    </ul>
  );
}

/** The microphone toggle; disabled until the page is hydrated, since speech needs the browser. */
export function VoiceButton({ listening, onToggle, className = "btn btn-circle btn-ghost" }: { listening: boolean; onToggle: () => void; className?: string }) {
  const hydrated = useHydrated();
  return (
    <button
      type="button"
      className={`${className} ${listening ? "btn-error text-error-content motion-safe:animate-pulse" : ""}`}
      onClick={onToggle}
      disabled={!hydrated}
      aria-pressed={listening}
      aria-label={listening ? "Stop voice input" : "Voice input"}
      title={listening ? "Stop voice input" : "Voice input"}
    >
      {listening ? <MicOff className="size-5" aria-hidden /> : <Mic className="size-5" aria-hidden />}
    </button>
  );
}

export function InlineError({ message, onDismiss }: { message: string | null; onDismiss?: () => void }) {
  if (!message) return null;
  return (
    <Alert kind="error" className="alert-soft">
      <XCircle className="size-5" aria-hidden />
      <span>{message}</span>
      {onDismiss ? (
        <button type="button" className="btn btn-ghost btn-xs" onClick={onDismiss} aria-label="Dismiss">
          <X className="size-4" aria-hidden />
        </button>
      ) : null}
    </Alert>
  );
}

export function ToolCallList({ calls }: { calls: ToolCall[] }) {
  return (
    <ul className="mt-2 flex flex-col gap-1" aria-label="Tool calls">
      {calls.map((call) => (
        <li key={call.id} className="flex items-center gap-2 rounded-lg bg-base-200 px-3 py-1.5 font-mono text-xs">
          {call.status === "running" ? (
            <Loader2 className="size-4 motion-safe:animate-spin text-info" aria-hidden />
          ) : call.status === "completed" ? (
            <CheckCircle2 className="size-4 text-success" aria-hidden />
          ) : (
            <XCircle className="size-4 text-error" aria-hidden />
          )}
          <span>{call.name}</span>
          <span
            className={`badge badge-xs ml-auto ${call.status === "completed" ? "badge-success" : call.status === "running" ? "badge-info" : "badge-error"}`}
          >
            {call.status}
          </span>
        </li>
      ))}
    </ul>
  );
}

/** A placeholder media result: the picture itself, or a poster with a player frame for video and audio. */
export function MediaPreview({ media }: { media: ChatMedia }) {
  if (media.type === "image") return <img src={media.url} alt="Generated image (placeholder)" className="w-full max-w-sm rounded-xl" />;
  return (
    <figure
      className="relative w-full max-w-sm overflow-hidden rounded-xl"
      aria-label={media.type === "video" ? "Generated video (placeholder)" : "Generated audio (placeholder)"}
    >
      <img src={media.url} alt="" className={`w-full ${media.type === "audio" ? "h-20 object-cover" : ""}`} />
      <figcaption className="absolute inset-0 grid place-items-center bg-black/20 text-white">
        <span className="flex items-center gap-2 text-sm font-medium">
          {media.type === "video" ? <PlayCircle className="size-8" aria-hidden /> : <Music className="size-6" aria-hidden />}
          {media.type === "video" ? "Video preview · 0:05" : "Audio preview · 0:12"}
        </span>
      </figcaption>
    </figure>
  );
}

export function ChatBubble({ message, actions }: { message: ChatMessage; actions?: ReactNode }) {
  const mine = message.role === "user";
  return (
    <li className={`chat ${mine ? "chat-end" : "chat-start"}`} aria-label={mine ? "Your message" : "Assistant reply"}>
      <div className={`chat-bubble whitespace-pre-wrap wrap-anywhere ${mine ? "chat-bubble-primary" : "bg-base-100 text-base-content shadow-sm"}`}>
        {message.content}
        {message.toolCalls?.length ? <ToolCallList calls={message.toolCalls} /> : null}
        {message.media?.length ? (
          <div className="mt-3 grid gap-2">
            {message.media.map((m) => (
              <MediaPreview key={m.type} media={m} />
            ))}
          </div>
        ) : null}
      </div>
      {actions ? <div className="chat-footer mt-1">{actions}</div> : null}
    </li>
  );
}

export function ReadAloudButton({ onClick, speaking }: { onClick: () => void; speaking: boolean }) {
  return (
    <button type="button" className="btn btn-ghost btn-xs" onClick={onClick} aria-pressed={speaking}>
      <Volume2 className="size-4" aria-hidden />
      {speaking ? "Stop reading" : "Read aloud"}
    </button>
  );
}

export function CardLink({ to, children, className = "" }: { to: string; children: ReactNode; className?: string }) {
  return (
    <Link
      to={to}
      className={`card bg-base-100 shadow-sm transition hover:-translate-y-0.5 hover:shadow-md focus-visible:outline-2 focus-visible:outline-primary ${className}`}
    >
      {children}
    </Link>
  );
}
