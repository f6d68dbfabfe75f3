import type { LoaderFunctionArgs } from "@remix-run/node";
import { useParams } from "@remix-run/react";
import { Sparkles } from "lucide-react";
import { useState } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import { Breadcrumbs, ModelPicker, submitOnEnter } from "~/features/demos/components";
import { GeneratedOutput } from "~/features/demos/GeneratedOutput";
import { GeneratingBar, GeneratorForm, OutputCard, SimulationError } from "~/features/demos/GeneratorCards";
import { NotFoundCard } from "~/features/demos/NotFoundCard";
import type { Playground } from "~/features/demos/playground";
import { GENERATION_FAILED, PLAYGROUND_DELAY_MS, PLAYGROUND_NOT_FOUND, cannedOutput, findCategory, findPlayground } from "~/features/demos/playground";
import { useSimulation } from "~/features/demos/timers";
import type { RouteHandle } from "~/lib/route-handle";
import { demoStatus } from "~/features/demos/not-found.server";

export const loader = ({ params }: LoaderFunctionArgs) => demoStatus(findPlayground(params.category, params.useCase));

export const handle: RouteHandle = {
  title: "Playground",
  // "Chat · Playground", not "Chat", which is the real chat's tab.
  tabTitle: ({ params }) => {
    const found = findPlayground(params.category, params.useCase);
    return found ? `${found.useCase.title} · Playground` : undefined;
  },
};

/** SPEC §2: a simulated generator for one known category/use-case pair, or 'Playground not found'. */
export default function PlaygroundGeneratorPage() {
  const params = useParams();
  const playground = findPlayground(params.category, params.useCase);
  if (!playground) {
    const category = findCategory(params.category);
    return (
      <NotFoundCard
        title={PLAYGROUND_NOT_FOUND}
        to={category ? `/playground/${category.id}` : "/"}
        back={category ? `Back to ${category.title}` : "Back to categories"}
      >
        This use case has no playground yet.
      </NotFoundCard>
    );
  }
  // A new pair of params is a new generator: remount so the prompt, model and output start afresh.
  return <Generator key={`${playground.category.id}/${playground.useCase.id}`} playground={playground} />;
}

function Generator({ playground: { category, useCase } }: { playground: Playground }) {
  const [model, setModel] = useState(useCase.models[0]);
  const [prompt, setPrompt] = useState("");
  const hydrated = useHydrated();
  const { state, running, run } = useSimulation<{ text: string; prompt: string; model: string }>(PLAYGROUND_DELAY_MS, GENERATION_FAILED);
  const blank = prompt.trim() === "";
  const generate = () => {
    if (blank || running) return;
    const asked = { prompt, model };
    run(() => ({ ...asked, text: cannedOutput(useCase.generator.output, asked.model, asked.prompt) }));
  };

  return (
    <section className="flex flex-col gap-6">
      <Breadcrumbs items={[{ label: "Home", to: "/" }, { label: category.title, to: `/playground/${category.id}` }, { label: useCase.title }]} />
      <header>
        <h2 className="text-3xl font-bold">{useCase.title}</h2>
        <p className="text-base-content/70">{useCase.description}</p>
      </header>
      <div className="grid gap-6 lg:grid-cols-2">
        <GeneratorForm
          onGenerate={generate}
          icon={running ? <span className="loading loading-spinner loading-sm" aria-hidden /> : <Sparkles className="size-4" aria-hidden />}
          label={useCase.generator.cta}
          busy={running}
          disabled={!hydrated || blank}
          needsScript
        >
          <ModelPicker models={useCase.models} value={model} onChange={setModel} disabled={running} />
          <label className="flex flex-col gap-2">
            <span className="font-medium">Prompt</span>
            <textarea
              name="prompt"
              className="textarea min-h-40 w-full"
              rows={6}
              required
              placeholder={useCase.generator.placeholder}
              value={prompt}
              onChange={(e) => setPrompt(e.currentTarget.value)}
              onKeyDown={submitOnEnter(generate)}
            />
          </label>
        </GeneratorForm>
        <OutputCard title="Output" gap="gap-4">
          {state.status === "idle" ? <p className="text-base-content/60">Write a prompt and press Generate. The result appears here.</p> : null}
          {state.status === "running" ? (
            <div className="flex flex-col gap-3">
              <GeneratingBar />
              <p className="text-sm text-base-content/70">Generating with {model}...</p>
              <div className="skeleton h-32 w-full" />
            </div>
          ) : null}
          <SimulationError state={state} />
          {state.status === "done" ? <GeneratedOutput kind={useCase.generator.output} text={state.result.text} prompt={state.result.prompt} /> : null}
        </OutputCard>
      </div>
    </section>
  );
}
