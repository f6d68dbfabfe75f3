import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useSearchParams } from "@remix-run/react";
import { ArrowLeft, Sparkles } from "lucide-react";
import { useHydrated } from "remix-utils/use-hydrated";
import { GeneratingBar, GeneratorForm, OutputCard, SimulationError } from "~/features/demos/GeneratorCards";
import { NotFoundCard } from "~/features/demos/NotFoundCard";
import { GENERATION_FAILED, PLAYGROUND_DELAY_MS } from "~/features/demos/playground";
import { TemplateThumbnail } from "~/features/demos/TemplateThumbnail";
import type { Template } from "~/features/demos/templates";
import { findTemplate } from "~/features/demos/templates";
import { useSimulation } from "~/features/demos/timers";
import type { RouteHandle } from "~/lib/route-handle";
import { demoStatus } from "~/features/demos/not-found.server";

export const loader = ({ request }: LoaderFunctionArgs) => {
  const id = new URL(request.url).searchParams.get("template");
  return demoStatus(!id || findTemplate(id));
};

export const handle: RouteHandle = { title: "Template Editor" };

/** The template given in `?template=id`: a form of its fields and a simulated draft; a way back without one. */
export default function TemplateEditorPage() {
  const [params] = useSearchParams();
  const id = params.get("template");
  const template = findTemplate(id);
  if (!template) {
    return (
      <NotFoundCard title={id ? "Template not found" : "No template selected"} to="/template-home" back="Back to templates" arrow>
        {id ? "There is no such template: pick one from the gallery and press Use Template." : "Pick a template from the gallery and press Use Template."}
      </NotFoundCard>
    );
  }
  return <Editor key={template.id} template={template} />;
}

function Editor({ template }: { template: Template }) {
  const hydrated = useHydrated();
  const { state, running, run } = useSimulation<string[]>(PLAYGROUND_DELAY_MS, GENERATION_FAILED);
  return (
    <section className="flex flex-col gap-6">
      <Link to="/template-home" className="btn btn-ghost btn-sm self-start">
        <ArrowLeft className="size-4" aria-hidden /> All templates
      </Link>
      <header className="flex items-center gap-4">
        <span className="grid size-16 place-items-center rounded-2xl bg-primary/10 text-primary" aria-hidden>
          <TemplateThumbnail name={template.thumbnail} />
        </span>
        <div>
          <h2 className="text-3xl font-bold">{template.title}</h2>
          <p className="text-base-content/70">{template.description}</p>
        </div>
      </header>
      <div className="grid gap-6 lg:grid-cols-2">
        <GeneratorForm
          onGenerate={(form) => {
            const data = new FormData(form);
            run(() => template.fields.map((f) => `${f.label}: ${String(data.get(f.name) ?? "").trim() || "—"}`));
          }}
          icon={<Sparkles className="size-4" aria-hidden />}
          label="Generate"
          busy={running}
          disabled={!hydrated}
          needsScript
        >
          <h3 className="card-title">Fill in the template</h3>
          {template.fields.map((f) => (
            <label key={f.name} className="flex flex-col gap-1">
              <span className="text-sm font-medium">{f.label}</span>
              {f.kind === "textarea" ? (
                <textarea name={f.name} className="textarea w-full" rows={3} placeholder={f.placeholder} />
              ) : f.kind === "select" ? (
                <select name={f.name} className="select w-full">
                  {f.options?.map((o) => (
                    <option key={o}>{o}</option>
                  ))}
                </select>
              ) : (
                <input name={f.name} className="input w-full" placeholder={f.placeholder} />
              )}
            </label>
          ))}
        </GeneratorForm>
        <OutputCard title="Preview">
          {state.status === "idle" ? <p className="text-base-content/60">Your draft appears here. Estimated time: {template.estimatedTime}.</p> : null}
          {running ? <GeneratingBar /> : null}
          <SimulationError state={state} />
          {state.status === "done" ? (
            <div role="status" className="flex flex-col gap-2">
              <p className="font-medium">Draft of “{template.title}” ready (simulated):</p>
              <ul className="list-inside list-disc text-sm">
                {state.result.map((line) => (
                  <li key={line}>{line}</li>
                ))}
              </ul>
            </div>
          ) : null}
        </OutputCard>
      </div>
    </section>
  );
}
