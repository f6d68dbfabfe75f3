import { useNavigate } from "@remix-run/react";
import { AudioLines, Image, Type, Video } from "lucide-react";
import { useState } from "react";
import { MODALITIES, multimodalChatHref } from "~/features/demos/multimodal";
import { PromptComposer } from "~/features/demos/PromptComposer";
import { appendTranscript, useSpeechRecognition } from "~/features/demos/speech";
import type { RouteHandle } from "~/lib/route-handle";

export const handle: RouteHandle = { title: "Multimodal" };

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
  const speech = useSpeechRecognition((text) => setPrompt((p) => appendTranscript(p, text)));
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
      <PromptComposer
        action="/multimodal-chat"
        name="prompt"
        id="multimodal-prompt"
        label="Prompt"
        placeholder="Start a message..."
        textareaClassName="text-base"
        value={prompt}
        onChange={setPrompt}
        onSend={send}
        speech={speech}
        attach
        hint="Enter to send · Shift+Enter for a new line"
        sendLabel="Send"
        sendStyle="icon"
      >
        <input type="hidden" name="modalities" value={MODALITIES.join(",")} />
      </PromptComposer>
    </section>
  );
}
