import { Form } from "@remix-run/react";
import { Paperclip, Send } from "lucide-react";
import { useRef } from "react";
import type { FormEvent, ReactNode } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import { InlineError, VoiceButton, submitOnEnter, usePromptRows } from "./components";
import type { useSpeechRecognition } from "./speech";

type Speech = Pick<ReturnType<typeof useSpeechRecognition>, "listening" | "toggle" | "error" | "dismissError">;

export interface PromptComposerProps {
  /** The textarea's id; `label` names it for screen readers. */
  id: string;
  label: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
  /** Called by the send button and by Enter (SPEC §5); the caller decides what sending means. */
  onSend: () => void;
  speech: Speech;
  /**
   * A page-opening composer is a GET form to `action` (the textarea posted as `name`), so it works
   * without JavaScript and its send button is enabled before hydration. Without `action` it is a chat
   * composer docked under the messages, which needs JavaScript.
   */
  action?: string;
  name?: string;
  /** The textarea grows one row per line, wrapped lines included, between these limits. */
  minRows?: number;
  maxRows?: number;
  /** The send button: a labelled button, or a round icon button named by `sendLabel`. */
  sendLabel: string;
  sendStyle?: "text" | "icon";
  /** While a reply is pending, sending waits. */
  busy?: boolean;
  /** The paperclip button of the multimodal screens. */
  attach?: boolean;
  /** A short keyboard hint shown before the send button. */
  hint?: string;
  textareaClassName?: string;
  /** Extra (hidden) fields posted with the prompt. */
  children?: ReactNode;
}

/**
 * The prompt box of the avatar and multimodal screens: a growing textarea (Enter sends, Shift+Enter
 * adds a line), the voice-input button, the send button and the speech error.
 */
export function PromptComposer({
  id,
  label,
  placeholder,
  value,
  onChange,
  onSend,
  speech,
  action,
  name,
  minRows = 3,
  maxRows = 8,
  sendLabel,
  sendStyle = "text",
  busy = false,
  attach = false,
  hint,
  textareaClassName,
  children,
}: PromptComposerProps) {
  const hydrated = useHydrated();
  const blank = !value.trim();
  // A GET form works before hydration; a chat composer is disabled until the page can run it.
  const disabled = action ? hydrated && (blank || busy) : !hydrated || blank || busy;
  const box = useRef<HTMLTextAreaElement>(null);
  const rows = usePromptRows(box, value, minRows, maxRows);
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    // Sending clears the box, which disables the button under the keyboard user's focus: bring them
    // back to the box, where the next message is written.
    box.current?.focus();
    onSend();
  };
  const body = (
    <div className={action ? "card-body gap-3" : "card-body gap-2 p-4"}>
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <textarea
        ref={box}
        id={id}
        name={name}
        required={action ? true : undefined}
        className={`textarea textarea-ghost w-full resize-none ${textareaClassName ? `${textareaClassName} ` : ""}focus:outline-none`}
        placeholder={placeholder}
        rows={rows}
        value={value}
        onChange={(e) => onChange(e.currentTarget.value)}
        onKeyDown={submitOnEnter(onSend)}
      />
      {children}
      <div className="flex items-center gap-2">
        {attach ? (
          <button type="button" className="btn btn-circle btn-ghost" aria-label="Attach a file" title="Attach a file">
            <Paperclip className="size-5" aria-hidden />
          </button>
        ) : null}
        <VoiceButton listening={speech.listening} onToggle={speech.toggle} />
        {hint ? <span className="ml-auto text-xs text-base-content/50">{hint}</span> : null}
        {sendStyle === "icon" ? (
          <button type="submit" className={`btn btn-circle btn-primary${hint ? "" : " ml-auto"}`} aria-label={sendLabel} disabled={disabled}>
            <Send className="size-5" aria-hidden />
          </button>
        ) : (
          <button type="submit" className={`btn btn-primary${hint ? "" : " ml-auto"}`} disabled={disabled}>
            <Send className="size-4" aria-hidden /> {sendLabel}
          </button>
        )}
      </div>
      <InlineError message={speech.error} onDismiss={speech.dismissError} />
    </div>
  );
  return action ? (
    <Form method="get" action={action} className="card w-full bg-base-100 shadow-md" onSubmit={onSubmit}>
      {body}
    </Form>
  ) : (
    <form className="card bg-base-100 shadow-md" onSubmit={onSubmit}>
      {body}
    </form>
  );
}
