import type { MetaFunction } from "@remix-run/node";
import { Form, useNavigate } from "@remix-run/react";
import { AudioLines, Image, Paperclip, Send, Type, Video } from "lucide-react";
import { useRef, useState } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import { InlineError, VoiceButton, promptRows, submitOnEnter } from "~/features/demos/components";
import { MODALITIES, multimodalChatHref } from "~/features/demos/multimodal";
import { useSpeechRecognition } from "~/features/demos/speech";
import type { RouteHandle } from "./_org";

export const handle: RouteHandle = { title: "Multimodal" };
export const meta: MetaFunction = () => [{ title: "Multimodal · AI Console" }];

const circles = [
  { id: "text", label: "Text", icon: Type, tone: "bg-primary/15 text-primary" },
  { id: "image", label: "Image", icon: Image, tone: "bg-secondary/15 text-secondary" },
  { id: "video", label: "Video", icon: Video, tone: "bg-accent/15 text-accent" },
  { id: "audio", label: "Audio", icon: AudioLines, tone: "bg-info/15 text-info" },
] as const;

/** SPEC §2 /multimodal-home: the prompt (with all four modalities) goes to /multimodal-chat in the URL. */
export default function MultimodalHomePage() {
  const [prompt, setPrompt] = useState("");
  const navigate = useNavigate();
  const hydrated = useHydrated();
  const form = useRef<HTMLFormElement>(null);
  const speech = useSpeechRecognition((text) => setPrompt((p) => (p.trim() ? `${p.trimEnd()} ${text}` : text)));
  const send = () => {
    if (prompt.trim()) navigate(multimodalChatHref(prompt));
  };

  return (
    <section className="mx-auto flex max-w-3xl flex-col items-center gap-8 py-6">
      <header className="text-center">
        <h2 className="text-3xl font-bold">What do you want to create?</h2>
        <p className="text-base-content/70">One prompt, every modality: text, images, video and audio together.</p>
      </header>
      <ul className="flex flex-wrap justify-center gap-6" aria-label="Modalities">
        {circles.map(({ id, label, icon: Icon, tone }) => (
          <li key={id} className="flex flex-col items-center gap-2">
            <span className={`grid size-20 place-items-center rounded-full ${tone}`}>
              <Icon className="size-8" aria-hidden />
            </span>
            <span className="text-sm font-medium">{label}</span>
          </li>
        ))}
      </ul>
      {/* Without JavaScript this is a plain GET form to the chat, carrying the same parameters. */}
      <Form
        ref={form}
        method="get"
        action="/multimodal-chat"
        className="card w-full bg-base-100 shadow-md"
        onSubmit={(e) => {
          e.preventDefault();
          send();
        }}
      >
        <div className="card-body gap-3">
          <label htmlFor="multimodal-prompt" className="sr-only">
            Prompt
          </label>
          <textarea
            id="multimodal-prompt"
            name="prompt"
            required
            className="textarea textarea-ghost w-full resize-none text-base focus:outline-none"
            placeholder="Start a message..."
            rows={promptRows(prompt)}
            value={prompt}
            onChange={(e) => setPrompt(e.currentTarget.value)}
            onKeyDown={submitOnEnter(send)}
          />
          <input type="hidden" name="modalities" value={MODALITIES.join(",")} />
          <div className="flex items-center gap-2">
            <button type="button" className="btn btn-circle btn-ghost" aria-label="Attach a file" title="Attach a file">
              <Paperclip className="size-5" aria-hidden />
            </button>
            <VoiceButton listening={speech.listening} onToggle={speech.toggle} />
            <span className="ml-auto text-xs text-base-content/50">Enter to send · Shift+Enter for a new line</span>
            <button type="submit" className="btn btn-circle btn-primary" aria-label="Send" disabled={hydrated && !prompt.trim()}>
              <Send className="size-5" aria-hidden />
            </button>
          </div>
          <InlineError message={speech.error} onDismiss={speech.dismissError} />
        </div>
      </Form>
    </section>
  );
}
