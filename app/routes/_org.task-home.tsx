import { Link, useSearchParams } from "@remix-run/react";
import { ArrowRight, Clock, Cpu, ListOrdered, Play } from "lucide-react";
import { UrlDialog } from "~/components/UrlDialog";
import { ModelChips } from "~/features/demos/components";
import type { Task } from "~/features/demos/tasks";
import { TASKS, findTask } from "~/features/demos/tasks";
import type { RouteHandle } from "~/lib/route-handle";

export const handle: RouteHandle = { title: "Tasks" };

const accents: Record<Task["colour"], string> = {
  primary: "bg-primary/15 text-primary",
  secondary: "bg-secondary/15 text-secondary",
  accent: "bg-accent/15 text-accent",
  info: "bg-info/15 text-info",
  success: "bg-success/15 text-success",
  warning: "bg-warning/15 text-warning",
};

/** SPEC §2 /task-home: six task cards; Start Task opens a dialog (by URL) and then goes to /task-execution?task=id. */
export default function TaskHomePage() {
  const [params] = useSearchParams();
  const chosen = findTask(params.get("task"));
  return (
    <section className="flex flex-col gap-6">
      <header>
        <h2 className="text-3xl font-bold">Get things done with AI workflows</h2>
        <p className="text-base-content/70">Pick a task: each one chains the right models for you, step by step.</p>
      </header>
      <ul className="grid gap-4 md:grid-cols-2 xl:grid-cols-3" aria-label="Tasks">
        {TASKS.map((task) => (
          <li key={task.id}>
            <TaskCard task={task} />
          </li>
        ))}
      </ul>
      <UrlDialog name="start-task" title={chosen ? chosen.title : "Task not found"}>
        {chosen ? <StartTask task={chosen} /> : <p>That task does not exist. Close this dialog and pick one from the list.</p>}
      </UrlDialog>
    </section>
  );
}

function TaskCard({ task }: { task: Task }) {
  const params = new URLSearchParams({ dialog: "start-task", task: task.id });
  return (
    <article className="card h-full bg-base-100 shadow-sm">
      <div className="card-body gap-3">
        <div className="flex items-center justify-between gap-2">
          <span className={`badge border-0 ${accents[task.colour]}`}>{task.category}</span>
          <span className="flex items-center gap-1 text-sm text-base-content/70">
            <Clock className="size-4" aria-hidden />
            <span className="sr-only">Estimated time:</span> {task.estimatedTime}
          </span>
        </div>
        <h3 className="card-title">{task.title}</h3>
        <p className="text-sm text-base-content/70">{task.description}</p>
        <p className="flex items-center gap-1 text-sm">
          <ListOrdered className="size-4" aria-hidden /> {task.steps.length} steps
        </p>
        <ModelChips models={task.models} />
        <div className="card-actions mt-auto justify-end pt-2">
          <Link to={`?${params}`} replace preventScrollReset className="btn btn-primary btn-sm" aria-label={`Start Task: ${task.title}`}>
            <Play className="size-4" aria-hidden /> Start Task
          </Link>
        </div>
      </div>
    </article>
  );
}

function StartTask({ task }: { task: Task }) {
  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm text-base-content/70">{task.description}</p>
      <div>
        <h3 className="mb-2 font-semibold">Workflow steps</h3>
        <ol className="steps steps-vertical">
          {task.steps.map((s) => (
            <li key={s} className="step">
              {s}
            </li>
          ))}
        </ol>
      </div>
      <div>
        <h3 className="mb-2 flex items-center gap-1 font-semibold">
          <Cpu className="size-4" aria-hidden /> Models
        </h3>
        <ModelChips models={task.models} />
      </div>
      <div className="modal-action flex-wrap">
        <Link to="/task-home" replace preventScrollReset className="btn btn-ghost">
          Cancel
        </Link>
        <Link to={`/task-execution?task=${encodeURIComponent(task.id)}`} className="btn btn-primary">
          Start Task <ArrowRight className="size-4" aria-hidden />
        </Link>
      </div>
    </div>
  );
}
