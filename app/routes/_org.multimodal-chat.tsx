import { Form, Link, useSearchParams } from "@remix-run/react";
import { ArrowLeft } from "lucide-react";
import { useCallback, useRef, useState } from "react";
import { MessageList, useInitialPrompt } from "~/features/demos/ChatThread";
import { ReadAloudButton } from "~/features/demos/components";
import type { ChatMessage, Modality } from "~/features/demos/multimodal";
import {
  CHAT_REPLY_DELAY_MS,
  MODALITIES,
  TOOL_CALL_DELAY_MS,
  cannedMultimodalReply,
  mediaFor,
  parseModalities,
  toolCallsFor,
} from "~/features/demos/multimodal";
import { PromptComposer } from "~/features/demos/PromptComposer";
import { appendTranscript, useSpeechRecognition, useSpeechSynthesis } from "~/features/demos/speech";
import { useTimers } from "~/features/demos/timers";
import type { RouteHandle } from "~/lib/route-handle";

export const handle: RouteHandle = { title: "Multimodal Chat" };

/**
 * SPEC §2 /multimodal-chat: a prototype chat with canned replies after 1 s and simulated tool calls
 * (generate_{modality}) that complete after 2 s with a placeholder result. No server call.
 */
export default function MultimodalChatPage() {
  const [params] = useSearchParams();
  const initialPrompt = params.get("prompt")?.trim() ?? "";
  const [modalities, setModalities] = useState<Modality[]>(() => parseModalities(params.get("modalities")));
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [draft, setDraft] = useState("");
  const [pending, setPending] = useState(false);
  const { schedule } = useTimers();
  const nextId = useRef(0);
  const speech = useSpeechRecognition((text) => setDraft((d) => appendTranscript(d, text)));
  const voice = useSpeechSynthesis();

  const send = useCallback(
    (text: string, using: Modality[]) => {
      const content = text.trim();
      if (!content) return;
      const id = `m${nextId.current++}`;
      setMessages((ms) => [...ms, { id, role: "user", content, timestamp: Date.now() }]);
      setPending(true);
      schedule(() => {
        const replyId = `${id}-reply`;
        const toolCalls = toolCallsFor(using, replyId);
        setMessages((ms) => [...ms, { id: replyId, role: "assistant", content: cannedMultimodalReply(content, using), timestamp: Date.now(), toolCalls }]);
        setPending(false);
        if (toolCalls.length === 0) return;
        schedule(() => {
          setMessages((ms) =>
            ms.map((m) =>
              m.id === replyId ? { ...m, toolCalls: toolCalls.map((c) => ({ ...c, status: "completed" as const })), media: mediaFor(toolCalls, content) } : m,
            ),
          );
        }, TOOL_CALL_DELAY_MS);
      }, CHAT_REPLY_DELAY_MS);
    },
    [schedule],
  );

  // The prompt carried from /multimodal-home in the URL starts the conversation (again on reload).
  useInitialPrompt(initialPrompt, (prompt) => send(prompt, parseModalities(params.get("modalities"))));

  const submit = () => {
    if (!draft.trim() || pending) return;
    send(draft, modalities);
    setDraft("");
  };
  const lastReply = [...messages].reverse().find((m) => m.role === "assistant");
  const toggled = (m: Modality) => (modalities.includes(m) ? modalities.filter((x) => x !== m) : MODALITIES.filter((x) => x === m || modalities.includes(x)));

  return (
    <section className="mx-auto flex h-full max-w-4xl flex-col gap-4">
      <div className="flex flex-wrap items-center gap-2">
        <Link to="/multimodal-home" className="btn btn-ghost btn-sm">
          <ArrowLeft className="size-4" aria-hidden /> New prompt
        </Link>
        {/* Without JavaScript each toggle loads the page again with its `?modalities=` (the prompt kept);
            with it, the toggle is local to the conversation. */}
        <Form method="get" className="ml-auto flex flex-wrap gap-1" role="group" aria-label="Modalities">
          {[...params].map(([name, value], i) => (name === "modalities" ? null : <input key={i} type="hidden" name={name} value={value} />))}
          {MODALITIES.map((m) => (
            <button
              key={m}
              type="submit"
              name="modalities"
              value={toggled(m).join(",")}
              className={`btn btn-xs ${modalities.includes(m) ? "btn-primary" : "btn-outline"}`}
              aria-pressed={modalities.includes(m)}
              onClick={(e) => {
                e.preventDefault();
                setModalities(toggled(m));
              }}
            >
              {m}
            </button>
          ))}
        </Form>
      </div>
      <div className="card min-h-96 flex-1 bg-base-100 shadow-sm">
        <div className="card-body">
          {messages.length === 0 ? (
            <div className="m-auto text-center text-base-content/70">
              {initialPrompt ? (
                <>
                  {/* Without JavaScript nothing would ever start: show the prompt and say why instead. */}
                  <p className="hide-without-script">Starting...</p>
                  <noscript>
                    <p>
                      Your prompt: <q className="text-base-content">{initialPrompt}</q>
                    </p>
                    <p>The assistant&apos;s replies are simulated in your browser: turn on JavaScript to see them.</p>
                  </noscript>
                </>
              ) : (
                <p>Ask for text, images, video or audio: the assistant answers with all of them.</p>
              )}
            </div>
          ) : (
            <MessageList
              className="flex flex-col gap-2"
              messages={messages}
              pending={pending}
              pendingLabel="Assistant is typing"
              followLatest
              actions={(m) =>
                m === lastReply ? (
                  <ReadAloudButton speaking={voice.speaking} onClick={() => (voice.speaking ? voice.cancel() : voice.speak(m.content))} />
                ) : undefined
              }
            />
          )}
        </div>
      </div>
      <PromptComposer
        id="multimodal-chat-input"
        label="Message"
        placeholder="Start a message..."
        value={draft}
        onChange={setDraft}
        onSend={submit}
        speech={speech}
        attach
        sendLabel="Send"
        sendStyle="icon"
        busy={pending}
      />
    </section>
  );
}
