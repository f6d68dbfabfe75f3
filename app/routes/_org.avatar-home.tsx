import { useNavigate } from "@remix-run/react";
import { Pause, Play } from "lucide-react";
import { useState } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import { AvatarFace } from "~/features/demos/Avatar";
import { AVATAR_GREETING, AVATAR_HINTS, AVATAR_HINT_INTERVAL_MS, avatarState } from "~/features/demos/avatar";
import { PromptComposer } from "~/features/demos/PromptComposer";
import { appendTranscript, useSpeechRecognition } from "~/features/demos/speech";
import { useRotatingIndex } from "~/features/demos/timers";
import type { RouteHandle } from "~/lib/route-handle";

export const handle: RouteHandle = { title: "Avatar" };

/**
 * SPEC §2 /avatar-home: the greeting bubble with hints rotating every 15 s, which the user can pause
 * (WCAG 2.2.2); the prompt goes to /avatar-chat.
 */
export default function AvatarHomePage() {
  const [prompt, setPrompt] = useState("");
  const [paused, setPaused] = useState(false);
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const hint = useRotatingIndex(AVATAR_HINTS.length, AVATAR_HINT_INTERVAL_MS, paused);
  const speech = useSpeechRecognition((text) => setPrompt((p) => appendTranscript(p, text)));
  const send = () => {
    if (prompt.trim()) navigate(`/avatar-chat?${new URLSearchParams({ prompt: prompt.trim() })}`);
  };

  return (
    <section className="mx-auto flex max-w-2xl flex-col items-center gap-6 py-6">
      <AvatarFace state={avatarState({ listening: speech.listening, pending: false, speaking: false })} />
      <div className="chat chat-start w-full justify-center">
        <div className="chat-bubble bg-base-100 text-base-content shadow-md">
          <p className="font-medium">{AVATAR_GREETING}</p>
          {/* Not a live region: a hint that changes every 15 s for as long as the page is open would interrupt a screen reader without end. */}
          <div className="mt-2 flex items-center gap-2">
            <p className="text-sm text-base-content/70" data-testid="avatar-hint">
              {AVATAR_HINTS[hint]}
            </p>
            {/* Rotating needs the script: without it the first hint simply stays, and so does no button. */}
            {hydrated ? (
              <button
                type="button"
                className="btn btn-square btn-ghost btn-xs"
                title={paused ? "Resume hints" : "Pause hints"}
                onClick={() => setPaused(!paused)}
              >
                {paused ? <Play className="size-3" aria-hidden /> : <Pause className="size-3" aria-hidden />}
                <span className="sr-only">{paused ? "Resume hints" : "Pause hints"}</span>
              </button>
            ) : null}
          </div>
        </div>
      </div>
      <PromptComposer
        action="/avatar-chat"
        name="prompt"
        id="avatar-prompt"
        label="Message for the avatar"
        placeholder="Say hello, or ask me to draw something..."
        value={prompt}
        onChange={setPrompt}
        onSend={send}
        speech={speech}
        sendLabel="Talk to Nova"
      />
    </section>
  );
}
