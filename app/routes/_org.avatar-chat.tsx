import { Link, useSearchParams } from "@remix-run/react";
import { ArrowLeft } from "lucide-react";
import { useCallback, useRef, useState } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import { AvatarFace } from "~/features/demos/Avatar";
import {
  AVATAR_GREETING,
  AVATAR_NUDGES,
  AVATAR_NUDGE_AFTER_MS,
  AVATAR_NUDGE_SHOWN_MS,
  AVATAR_REPLY_DELAY_MS,
  avatarReply,
  avatarState,
} from "~/features/demos/avatar";
import { MessageList, useInitialPrompt } from "~/features/demos/ChatThread";
import type { ChatMessage } from "~/features/demos/multimodal";
import { placeholderImage } from "~/features/demos/multimodal";
import { PromptComposer } from "~/features/demos/PromptComposer";
import { appendTranscript, useSpeechRecognition, useSpeechSynthesis } from "~/features/demos/speech";
import { useIdleNudge, useTimers } from "~/features/demos/timers";
import type { RouteHandle } from "~/lib/route-handle";

export const handle: RouteHandle = { title: "Avatar Chat" };

/**
 * SPEC §2 /avatar-chat: canned replies spoken aloud, images generated at random, the four avatar states
 * of §4, and a nudge after 20 s of idleness shown for 5 s.
 */
export default function AvatarChatPage() {
  const [params] = useSearchParams();
  const initialPrompt = params.get("prompt")?.trim() ?? "";
  const [messages, setMessages] = useState<ChatMessage[]>([{ id: "greeting", role: "assistant", content: AVATAR_GREETING, timestamp: 0 }]);
  const [draft, setDraft] = useState("");
  const [pending, setPending] = useState(false);
  const { schedule } = useTimers();
  const hydrated = useHydrated();
  const replies = useRef(0);
  const voice = useSpeechSynthesis();
  // While Nova is thinking, sending waits: what was heard goes into the box, to be sent after her reply.
  const speech = useSpeechRecognition((text) => (pending ? setDraft((d) => appendTranscript(d, text)) : send(text)));
  const state = avatarState({ listening: speech.listening, pending, speaking: voice.speaking });
  const nudge = useIdleNudge(hydrated && state === "idle", `${messages.length}:${draft}`, AVATAR_NUDGE_AFTER_MS, AVATAR_NUDGE_SHOWN_MS);
  const { speak, cancel } = voice;

  const send = useCallback(
    (text: string) => {
      const content = text.trim();
      if (!content) return;
      const n = replies.current++;
      cancel();
      setMessages((ms) => [...ms, { id: `u${n}`, role: "user", content, timestamp: Date.now() }]);
      setPending(true);
      schedule(() => {
        const reply = avatarReply(content, n, Math.random());
        setMessages((ms) => [
          ...ms,
          {
            id: `a${n}`,
            role: "assistant",
            content: reply.text,
            timestamp: Date.now(),
            media: reply.image ? [{ type: "image", url: placeholderImage(content, (n * 47) % 360) }] : undefined,
          },
        ]);
        setPending(false);
        speak(reply.text);
      }, AVATAR_REPLY_DELAY_MS);
    },
    [schedule, speak, cancel],
  );

  useInitialPrompt(initialPrompt, send);

  const submit = () => {
    if (!draft.trim() || pending) return;
    send(draft);
    setDraft("");
  };

  return (
    <section className="grid gap-6 lg:grid-cols-[320px_1fr]">
      <aside className="card bg-base-100 shadow-sm">
        <div className="card-body items-center gap-4">
          <Link to="/avatar-home" className="btn btn-ghost btn-sm self-start">
            <ArrowLeft className="size-4" aria-hidden /> Back
          </Link>
          <AvatarFace state={state} />
          {/* Not a live region: the nudge comes back every 25 s while idle, and would be announced each time. */}
          <div className="min-h-16 w-full">
            {nudge ? (
              <div role="note" className="alert alert-info alert-soft text-sm">
                {AVATAR_NUDGES[messages.length % AVATAR_NUDGES.length]}
              </div>
            ) : null}
          </div>
          {voice.speaking ? (
            <button type="button" className="btn btn-outline btn-sm" onClick={cancel}>
              Stop speaking
            </button>
          ) : null}
        </div>
      </aside>
      <div className="flex min-h-[32rem] flex-col gap-4">
        <div className="card flex-1 bg-base-100 shadow-sm">
          <MessageList className="card-body gap-2" messages={messages} pending={pending} pendingLabel="Nova is thinking" />
          {/* The prompt from /avatar-home is kept even without JavaScript, which the replies need. */}
          <noscript>
            <div className="card-body gap-2 pt-0">
              {initialPrompt ? (
                <p>
                  Your prompt: <q>{initialPrompt}</q>
                </p>
              ) : null}
              <p className="text-base-content/70">Nova&apos;s replies and voice are simulated in your browser: turn on JavaScript to talk with her.</p>
            </div>
          </noscript>
        </div>
        <PromptComposer
          id="avatar-chat-input"
          label="Message"
          placeholder="Type a message or use the microphone..."
          minRows={1}
          maxRows={4}
          value={draft}
          onChange={setDraft}
          onSend={submit}
          speech={speech}
          sendLabel="Send"
          busy={pending}
        />
      </div>
    </section>
  );
}
