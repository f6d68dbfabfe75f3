import { ArrowRight, Code2, Shapes, Workflow } from "lucide-react";
import { CardLink } from "~/features/demos/components";
import type { RouteHandle } from "~/lib/route-handle";

export const handle: RouteHandle = { title: "Synthesis" };

const cards = [
  {
    title: "Multi-Modal",
    to: "/multimodal-home",
    icon: Shapes,
    text: "One prompt that answers with text, images, video and audio.",
    tone: "bg-primary/15 text-primary",
  },
  {
    title: "Workflows",
    to: "/task-home",
    icon: Workflow,
    text: "Ready-made tasks that chain several models step by step.",
    tone: "bg-secondary/15 text-secondary",
  },
  { title: "API", to: "/api-home", icon: Code2, text: "Build it into your product with the OpenAI-compatible API.", tone: "bg-accent/15 text-accent" },
];

/** SPEC §2 /synthesis-home: three cards to the multimodal, workflow and API homes. */
export default function SynthesisHomePage() {
  return (
    <section className="flex flex-col gap-6">
      <header>
        <h2 className="text-3xl font-bold">Synthesis</h2>
        <p className="text-base-content/70">Combine models into something bigger than any one of them.</p>
      </header>
      <ul className="grid gap-4 md:grid-cols-3">
        {cards.map(({ title, to, icon: Icon, text, tone }) => (
          <li key={to}>
            <CardLink to={to} className="h-full">
              <div className="card-body">
                <span className={`grid size-14 place-items-center rounded-2xl ${tone}`}>
                  <Icon className="size-7" aria-hidden />
                </span>
                <h3 className="card-title mt-2">{title}</h3>
                <p className="text-sm text-base-content/70">{text}</p>
                <span className="mt-2 flex items-center gap-1 text-sm font-medium text-primary">
                  Open <ArrowRight className="size-4" aria-hidden />
                </span>
              </div>
            </CardLink>
          </li>
        ))}
      </ul>
    </section>
  );
}
