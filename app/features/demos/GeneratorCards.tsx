import type { FormEvent, ReactNode } from "react";
import { InlineError } from "./components";
import type { Simulation } from "./timers";

/**
 * The input card of a simulated generator (playground, template editor, image edit, video): a form
 * whose submit runs `onGenerate` in the browser, its fields, and the generate button (its busy label
 * while running). `disabled` is for when generating cannot start (blank input, not hydrated);
 * `busy` is handled here. `needsScript` adds the note shown when JavaScript is off.
 */
export function GeneratorForm({
  onGenerate,
  children,
  icon,
  label,
  busyLabel = "Generating...",
  busy,
  disabled,
  needsScript = false,
}: {
  onGenerate: (form: HTMLFormElement) => void;
  children: ReactNode;
  icon: ReactNode;
  label: string;
  busyLabel?: string;
  busy: boolean;
  disabled: boolean;
  needsScript?: boolean;
}) {
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (!busy) onGenerate(e.currentTarget);
  };
  return (
    <form className="card bg-base-100 shadow-sm" onSubmit={onSubmit}>
      <div className="card-body gap-4">
        {children}
        {needsScript ? (
          <noscript>
            <p className="text-sm text-warning">The simulated generator runs in your browser and needs JavaScript.</p>
          </noscript>
        ) : null}
        <div className="card-actions justify-end">
          {/* Busy is aria-disabled, not disabled: a disabled button loses keyboard focus to the page's top. */}
          <button type="submit" className="btn btn-primary" disabled={disabled} aria-disabled={busy || undefined}>
            {icon} {busy ? busyLabel : label}
          </button>
        </div>
      </div>
    </form>
  );
}

/** The result card of a simulated generator, announced politely as its content changes. */
export function OutputCard({ title, gap = "gap-3", children }: { title?: string; gap?: "gap-3" | "gap-4"; children: ReactNode }) {
  return (
    <div className="card bg-base-100 shadow-sm" aria-live="polite">
      <div className={`card-body ${gap}`}>
        {title ? <h3 className="card-title">{title}</h3> : null}
        {children}
      </div>
    </div>
  );
}

/** The indeterminate progress bar shown while a simulation runs. */
export function GeneratingBar({ label = "Generating" }: { label?: string }) {
  return <progress className="progress progress-primary w-full" aria-label={label} />;
}

/** The failure text of a simulation, when it failed. */
export function SimulationError<T>({ state }: { state: Simulation<T> }) {
  return state.status === "error" ? <InlineError message={state.message} /> : null;
}
