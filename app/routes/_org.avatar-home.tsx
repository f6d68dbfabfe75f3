import type { MetaFunction } from "@remix-run/node";
import { Form, useNavigate } from "@remix-run/react";
import { Send } from "lucide-react";
import { useState } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import { AvatarFace } from "~/features/demos/Avatar";
import { AVATAR_GREETING, AVATAR_HINTS, AVATAR_HINT_INTERVAL_MS, avatarState } from "~/features/demos/avatar";
import { InlineError, VoiceButton, promptRows, submitOnEnter } from "~/features/demos/components";
import { useSpeechRecognition } from "~/features/demos/speech";
import { useRotatingIndex } from "~/features/demos/timers";
import type { RouteHandle } from "./_org";

export const handle: RouteHandle = { title: "Avatar" };
export const meta: MetaFunction = () => [{ title: "Avatar · AI Console" }];

/** SPEC §2 /avatar-home: the greeting bubble with hints rotating every 15 s; the prompt goes to /avatar-chat. */
export default function AvatarHomePage() {
  const [prompt, setPrompt] = useState("");
  const navigate = useNavigate();
  const hydrated = useHydrated();
  const hint = useRotatingIndex(AVATAR_HINTS.length, AVATAR_HINT_INTERVAL_MS);
  const speech = useSpeechRecognition((text) => setPrompt((p) => (p.trim() ? `${p.trimEnd()} ${text}` : text)));
  const send = () => {
    if (prompt.trim()) navigate(`/avatar-chat?${new URLSearchParams({ prompt: prompt.trim() })}`);
  };

  return (
    <section className="mx-auto flex max-w-2xl flex-col items-center gap-6 py-6">
      <AvatarFace state={avatarState({ listening: speech.listening, pending: false, speaking: false })} />
      <div className="chat chat-start w-full justify-center">
        <div className="chat-bubble bg-base-100 text-base-content shadow-md">
          <p className="font-medium">{AVATAR_GREETING}</p>
          <p className="mt-2 text-sm text-base-content/70" aria-live="polite" data-testid="avatar-hint">
            {AVATAR_HINTS[hint]}
          </p>
        </div>
      </div>
      <Form
        method="get"
        action="/avatar-chat"
        className="card w-full bg-base-100 shadow-md"
        onSubmit={(e) => {
          e.preventDefault();
          send();
        }}
      >
        <div className="card-body gap-3">
          <label htmlFor="avatar-prompt" className="sr-only">
            Message for the avatar
          </label>
          <textarea
            id="avatar-prompt"
            name="prompt"
            required
            className="textarea textarea-ghost w-full resize-none focus:outline-none"
            placeholder="Say hello, or ask me to draw something..."
            rows={promptRows(prompt)}
            value={prompt}
            onChange={(e) => setPrompt(e.currentTarget.value)}
            onKeyDown={submitOnEnter(send)}
          />
          <div className="flex items-center gap-2">
            <VoiceButton listening={speech.listening} onToggle={speech.toggle} />
            <button type="submit" className="btn btn-primary ml-auto" disabled={hydrated && !prompt.trim()}>
              <Send className="size-4" aria-hidden /> Talk to Nova
            </button>
          </div>
          <InlineError message={speech.error} onDismiss={speech.dismissError} />
        </div>
      </Form>
    </section>
  );
}
