import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useSearchParams } from "@remix-run/react";
import { ArrowLeft, CheckCircle2, Circle, Loader2, Play, RotateCcw } from "lucide-react";
import { useState } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import { ModelChips } from "~/features/demos/components";
import { NotFoundCard } from "~/features/demos/NotFoundCard";
import { PLAYGROUND_DELAY_MS } from "~/features/demos/playground";
import type { Task } from "~/features/demos/tasks";
import { findTask } from "~/features/demos/tasks";
import { useTimers } from "~/features/demos/timers";
import type { RouteHandle } from "~/lib/route-handle";
import { demoStatus } from "~/features/demos/not-found.server";

export const loader = ({ request }: LoaderFunctionArgs) => {
  const id = new URL(request.url).searchParams.get("task");
  return demoStatus(!id || findTask(id));
};

export const handle: RouteHandle = { title: "Task Execution" };

/** The task given in `?task=id`: its step list, run as a simulation; a way back without one. */
export default function TaskExecutionPage() {
  const [params] = useSearchParams();
  const id = params.get("task");
  const task = findTask(id);
  if (!task) {
    return (
      <NotFoundCard title={id ? "Task not found" : "No task selected"} to="/task-home" back="Back to tasks" arrow>
        {id ? "There is no such task: choose one from the list, then start it from its dialog." : "Choose a task first, then start it from its dialog."}
      </NotFoundCard>
    );
  }
  return <TaskRun key={task.id} task={task} />;
}

function TaskRun({ task }: { task: Task }) {
  // -1: not started; i: step i running; steps.length: all done.
  const [current, setCurrent] = useState(-1);
  const { schedule, cancelAll } = useTimers();
  const hydrated = useHydrated();
  const idle = current === -1;
  const done = current >= task.steps.length;
  const run = () => {
    cancelAll();
    setCurrent(0);
    task.steps.forEach((_, i) => schedule(() => setCurrent(i + 1), PLAYGROUND_DELAY_MS * (i + 1)));
  };
  const reset = () => {
    cancelAll();
    setCurrent(-1);
  };
  return (
    <section className="mx-auto flex max-w-3xl flex-col gap-6">
      <Link to="/task-home" className="btn btn-ghost btn-sm self-start">
        <ArrowLeft className="size-4" aria-hidden /> All tasks
      </Link>
      <header className="flex flex-col gap-2">
        <span className="badge badge-outline">{task.category}</span>
        <h2 className="text-3xl font-bold">{task.title}</h2>
        <p className="text-base-content/70">
          {task.description} Estimated time: {task.estimatedTime}.
        </p>
        <ModelChips models={task.models} />
      </header>
      <div className="card bg-base-100 shadow-sm">
        <div className="card-body">
          <h3 className="card-title">Steps</h3>
          <ol className="flex flex-col gap-2" aria-label="Steps">
            {task.steps.map((step, i) => {
              const status = i < current ? "completed" : i === current ? "running" : "pending";
              return (
                <li key={step} className="flex items-center gap-3 rounded-lg bg-base-200 px-4 py-3">
                  {status === "completed" ? (
                    <CheckCircle2 className="size-5 text-success" aria-hidden />
                  ) : status === "running" ? (
                    <Loader2 className="size-5 motion-safe:animate-spin text-info" aria-hidden />
                  ) : (
                    <Circle className="size-5 text-base-content/40" aria-hidden />
                  )}
                  <span className="flex-1">
                    {i + 1}. {step}
                  </span>
                  <span className="text-xs text-base-content/60">{status}</span>
                </li>
              );
            })}
          </ol>
          <progress
            className="progress progress-primary mt-2"
            value={Math.max(0, Math.min(current, task.steps.length))}
            max={task.steps.length}
            aria-label="Task progress"
          />
          {done ? (
            <div role="status" className="alert alert-success alert-soft mt-2">
              <CheckCircle2 className="size-5" aria-hidden /> Task complete (simulated). Your results would appear here.
            </div>
          ) : null}
          <noscript>
            <p className="mt-2 text-sm text-warning">The simulated run happens in your browser and needs JavaScript.</p>
          </noscript>
          <div className="card-actions mt-2 justify-end">
            {/* One button whose label follows the run: swapping elements would drop a keyboard user's focus. */}
            <button type="button" className={`btn ${idle ? "btn-primary" : "btn-outline"}`} onClick={idle || done ? run : reset} disabled={idle && !hydrated}>
              {idle ? <Play className="size-4" aria-hidden /> : <RotateCcw className="size-4" aria-hidden />}
              {idle ? "Run task" : done ? "Run again" : "Cancel"}
            </button>
          </div>
        </div>
      </div>
    </section>
  );
}
