import { Volume2 } from "lucide-react";
import { MediaPreview } from "./components";
import { placeholderImage } from "./multimodal";
import type { OutputKind } from "./playground";
import { useSpeechSynthesis } from "./speech";

/** A simulated result: the canned text, with a placeholder picture, player or voice for media outputs. */
export function GeneratedOutput({ kind, text, prompt }: { kind: OutputKind; text: string; prompt: string }) {
  const { speak, speaking, cancel } = useSpeechSynthesis();
  return (
    <div className="flex flex-col gap-3">
      <p role="status" className="whitespace-pre-wrap wrap-anywhere">
        {text}
      </p>
      {kind === "image" ? <MediaPreview media={{ type: "image", url: placeholderImage(prompt, 250) }} /> : null}
      {kind === "video" || kind === "avatar" ? <MediaPreview media={{ type: "video", url: placeholderImage(prompt, kind === "video" ? 330 : 200) }} /> : null}
      {kind === "audio" ? (
        <button type="button" className="btn btn-outline btn-sm w-fit" onClick={() => (speaking ? cancel() : speak(prompt))} aria-pressed={speaking}>
          <Volume2 className="size-4" aria-hidden />
          {speaking ? "Stop" : "Play with your browser's voice"}
        </button>
      ) : null}
      <p className="badge badge-ghost badge-sm">Simulated result · no model was called</p>
    </div>
  );
}
