import { Clapperboard, Sparkles } from "lucide-react";
import { useState } from "react";
import { MediaPreview, ModelPicker, submitOnEnter } from "./components";
import { GeneratingBar, GeneratorForm, SimulationError } from "./GeneratorCards";
import { placeholderImage } from "./multimodal";
import { GENERATION_FAILED, PLAYGROUND_DELAY_MS, cannedOutput } from "./playground";
import { useSimulation } from "./timers";

const MODELS = ["Wan 2.1", "HunyuanVideo", "LTX Video", "CogVideoX"];
const ASPECTS = ["16:9", "9:16", "1:1"] as const;
const DURATIONS = ["5 s", "10 s"] as const;

interface Clip {
  id: number;
  prompt: string;
  model: string;
  aspect: (typeof ASPECTS)[number];
  duration: (typeof DURATIONS)[number];
  text: string;
}

/** /video-generation: a simulated text-to-video studio (loaded lazily; no server call). */
export default function VideoGenerator() {
  const [prompt, setPrompt] = useState("");
  const [model, setModel] = useState(MODELS[0]);
  const [aspect, setAspect] = useState<Clip["aspect"]>("16:9");
  const [duration, setDuration] = useState<Clip["duration"]>("5 s");
  const [clips, setClips] = useState<Clip[]>([]);
  const { state, running, run } = useSimulation<Clip>(PLAYGROUND_DELAY_MS, GENERATION_FAILED);
  const generate = () => {
    if (!prompt.trim() || running) return;
    const asked = { prompt: prompt.trim(), model, aspect, duration, id: clips.length + 1 };
    run(() => {
      const clip = { ...asked, text: cannedOutput("video", asked.model, asked.prompt).replace("5 s", asked.duration) };
      setClips((c) => [clip, ...c]);
      return clip;
    });
  };
  return (
    <section className="grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
      <GeneratorForm onGenerate={generate} icon={<Sparkles className="size-4" aria-hidden />} label="Generate video" busy={running} disabled={!prompt.trim()}>
        <h2 className="card-title">
          <Clapperboard className="size-5" aria-hidden /> Describe your shot
        </h2>
        <ModelPicker models={MODELS} value={model} onChange={setModel} />
        <label className="flex flex-col gap-2">
          <span className="font-medium">Prompt</span>
          <textarea
            className="textarea min-h-32 w-full"
            required
            placeholder="A drone shot over a misty pine forest at dawn"
            value={prompt}
            onChange={(e) => setPrompt(e.currentTarget.value)}
            onKeyDown={submitOnEnter(generate)}
          />
        </label>
        <fieldset className="flex flex-wrap gap-6">
          <label className="flex items-center gap-2">
            <span className="text-sm font-medium whitespace-nowrap">Aspect ratio</span>
            <select className="select select-sm" value={aspect} onChange={(e) => setAspect(e.currentTarget.value as Clip["aspect"])}>
              {ASPECTS.map((a) => (
                <option key={a}>{a}</option>
              ))}
            </select>
          </label>
          <label className="flex items-center gap-2">
            <span className="text-sm font-medium">Duration</span>
            <select className="select select-sm" value={duration} onChange={(e) => setDuration(e.currentTarget.value as Clip["duration"])}>
              {DURATIONS.map((d) => (
                <option key={d}>{d}</option>
              ))}
            </select>
          </label>
        </fieldset>
      </GeneratorForm>
      <div className="flex flex-col gap-4" aria-live="polite">
        {running ? (
          <div className="card bg-base-100 shadow-sm">
            <div className="card-body gap-3">
              <GeneratingBar />
              <div className="skeleton aspect-video w-full" />
            </div>
          </div>
        ) : null}
        <SimulationError state={state} />
        {clips.length === 0 && !running ? (
          <div className="card border-2 border-dashed border-base-300">
            <div className="card-body items-center text-center text-base-content/60">Your clips appear here.</div>
          </div>
        ) : null}
        <ul className="flex flex-col gap-4" aria-label="Generated clips">
          {clips.map((c) => (
            <li key={c.id} className="card bg-base-100 shadow-sm">
              <div className="card-body gap-2">
                <MediaPreview media={{ type: "video", url: placeholderImage(c.prompt, (c.id * 67) % 360) }} />
                <p role="status">{c.text}</p>
                <p className="text-xs text-base-content/60">
                  {c.aspect} · {c.duration} · simulated result
                </p>
              </div>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
