import { ImageUp, Wand2 } from "lucide-react";
import { useEffect, useState } from "react";
import type { RovingMoves } from "~/lib/roving-focus";
import { moveFocus } from "~/lib/roving-focus";
import { submitOnEnter } from "./components";
import { GeneratingBar, GeneratorForm, OutputCard, SimulationError } from "./GeneratorCards";
import { placeholderImage } from "./multimodal";
import { GENERATION_FAILED, PLAYGROUND_DELAY_MS } from "./playground";
import { useSimulation } from "./timers";

/** Edit presets, simulated with CSS filters on the picture. */
export const EDIT_PRESETS = [
  { id: "enhance", label: "Enhance", filter: "contrast(1.15) saturate(1.3) brightness(1.05)" },
  { id: "mono", label: "Black & white", filter: "grayscale(1) contrast(1.1)" },
  { id: "warm", label: "Warm", filter: "sepia(0.35) saturate(1.4) hue-rotate(-10deg)" },
  { id: "cool", label: "Cool", filter: "saturate(1.1) hue-rotate(25deg) brightness(1.05)" },
  { id: "vintage", label: "Vintage", filter: "sepia(0.7) contrast(0.9) brightness(0.95)" },
] as const;
type PresetId = (typeof EDIT_PRESETS)[number]["id"];

/**
 * The WAI-ARIA radio group: one Tab stop (the checked style), and the arrow keys, Home and End move
 * along the styles, checking the one reached. The editor renders in the browser only, so from the start.
 */
const RADIO_MOVES: RovingMoves = {
  ArrowRight: (i, n) => (i + 1) % n,
  ArrowDown: (i, n) => (i + 1) % n,
  ArrowLeft: (i, n) => (i - 1 + n) % n,
  ArrowUp: (i, n) => (i - 1 + n) % n,
  Home: () => 0,
  End: (_i, n) => n - 1,
};

/** /image-edit: upload (or use a sample), describe an edit, and get a simulated result (loaded lazily; no server call). */
export default function ImageEditor() {
  const [source, setSource] = useState<{ url: string; name: string; uploaded: boolean }>(() => ({
    url: placeholderImage("Sample photo", 200),
    name: "Sample photo",
    uploaded: false,
  }));
  const [instruction, setInstruction] = useState("");
  const [preset, setPreset] = useState<PresetId>("enhance");
  const { state, running, run, reset } = useSimulation<{ filter: string; instruction: string }>(PLAYGROUND_DELAY_MS, GENERATION_FAILED);

  // An uploaded picture is a blob URL: release it when replaced or when leaving the page.
  useEffect(() => () => (source.uploaded ? URL.revokeObjectURL(source.url) : undefined), [source]);

  const apply = () => {
    if (!instruction.trim() || running) return;
    const chosen = EDIT_PRESETS.find((p) => p.id === preset)!;
    const asked = instruction.trim();
    run(() => ({ filter: chosen.filter, instruction: asked }));
  };

  return (
    <section className="grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
      <GeneratorForm
        onGenerate={apply}
        icon={<Wand2 className="size-4" aria-hidden />}
        label="Apply edit"
        busyLabel="Editing..."
        busy={running}
        disabled={!instruction.trim()}
      >
        <h2 className="card-title">
          <Wand2 className="size-5" aria-hidden /> Edit an image
        </h2>
        <label className="flex flex-col gap-2">
          <span className="flex items-center gap-1 font-medium">
            <ImageUp className="size-4" aria-hidden /> Image
          </span>
          <input
            type="file"
            accept="image/*"
            className="file-input w-full"
            onChange={(e) => {
              const file = e.currentTarget.files?.[0];
              if (!file) return;
              reset();
              setSource({ url: URL.createObjectURL(file), name: file.name, uploaded: true });
            }}
          />
          <span className="text-xs text-base-content/60">Stays in your browser; nothing is uploaded. Without a file, a sample picture is used.</span>
        </label>
        <div
          role="radiogroup"
          aria-label="Style"
          className="flex flex-wrap gap-2"
          onKeyDown={(event) => moveFocus(event, '[role="radio"]', RADIO_MOVES)?.click()}
        >
          {EDIT_PRESETS.map((p) => (
            <button
              key={p.id}
              type="button"
              role="radio"
              aria-checked={p.id === preset}
              tabIndex={p.id === preset ? 0 : -1}
              className={`btn btn-sm ${p.id === preset ? "btn-primary" : "btn-outline"}`}
              onClick={() => setPreset(p.id)}
            >
              {p.label}
            </button>
          ))}
        </div>
        <label className="flex flex-col gap-2">
          <span className="font-medium">What should change?</span>
          <textarea
            className="textarea w-full"
            rows={3}
            required
            placeholder="Brighten the sky and remove the lamp post on the left"
            value={instruction}
            onChange={(e) => setInstruction(e.currentTarget.value)}
            onKeyDown={submitOnEnter(apply)}
          />
        </label>
      </GeneratorForm>
      <OutputCard>
        <div className="grid gap-4 sm:grid-cols-2">
          <figure className="flex flex-col gap-1">
            <img src={source.url} alt={`Original: ${source.name}`} className="aspect-[8/5] w-full rounded-xl object-cover" />
            <figcaption className="text-xs text-base-content/60">Original</figcaption>
          </figure>
          <figure className="flex flex-col gap-1">
            {state.status === "done" ? (
              <img
                src={source.url}
                alt={`Edited: ${state.result.instruction}`}
                className="aspect-[8/5] w-full rounded-xl object-cover"
                style={{ filter: state.result.filter }}
              />
            ) : (
              <div
                className={`grid aspect-[8/5] w-full place-items-center rounded-xl ${running ? "skeleton" : "border-2 border-dashed border-base-300 text-sm text-base-content/50"}`}
              >
                {running ? null : "The edited image appears here"}
              </div>
            )}
            <figcaption className="text-xs text-base-content/60">Edited</figcaption>
          </figure>
        </div>
        {running ? <GeneratingBar label="Editing" /> : null}
        <SimulationError state={state} />
        {state.status === "done" ? <p role="status">Edit applied: “{state.result.instruction}” (simulated result).</p> : null}
      </OutputCard>
    </section>
  );
}
