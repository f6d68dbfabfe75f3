import { Link } from "@remix-run/react";
import { AudioLines, Image, MessageSquare, Table2, Video, Workflow } from "lucide-react";
import type { RouteHandle } from "~/lib/route-handle";

export const handle: RouteHandle = { title: "AI Playground" };

/** SPEC §2, home (first reading): six categories with their model counts. */
const categories = [
  { label: "Chat", count: 15, to: "/chat", icon: MessageSquare, blurb: "Talk to language models" },
  { label: "Image", count: 12, to: "/playground/image", icon: Image, blurb: "Generate and edit images" },
  { label: "Audio", count: 8, to: "/playground/audio", icon: AudioLines, blurb: "Speech, voices and music" },
  { label: "Video", count: 6, to: "/playground/video", icon: Video, blurb: "Create short videos" },
  { label: "Workflows", count: 5, to: "/playground/workflows", icon: Workflow, blurb: "Chain models together" },
  { label: "Data", count: 4, to: "/playground/data", icon: Table2, blurb: "Extract and analyse data" },
];

export default function Home() {
  return (
    <section>
      <h2 className="mb-6 text-3xl font-bold">Try AI Models</h2>
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {categories.map(({ label, count, to, icon: Icon, blurb }) => (
          <li key={label}>
            <Link to={to} className="card bg-base-100 shadow-sm transition hover:shadow-md focus-visible:outline-2 focus-visible:outline-primary">
              <div className="card-body flex-row items-center gap-4">
                <span className="grid size-12 place-items-center rounded-xl bg-primary/10 text-primary">
                  <Icon aria-hidden />
                </span>
                <div>
                  <h3 className="card-title">{label}</h3>
                  <p className="text-sm text-base-content/70">{blurb}</p>
                  <p className="text-sm font-medium">{count} models</p>
                </div>
              </div>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
