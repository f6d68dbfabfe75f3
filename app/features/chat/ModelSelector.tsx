import { Check, ChevronDown } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { StatusDot } from "~/features/models/StatusDot";
import type { StatusMap } from "~/features/models/status";
import { statusOf } from "~/features/models/status";
import type { Model } from "~/platform/models";
import { Figure } from "~/features/models/Figure";
import { formatMs } from "~/features/models/reliability";

/** The last hour's p50 time to first token of the organization's requests (issue 17), as a small figure. */
function FirstTokenFigure({ ms }: { ms: number | null | undefined }) {
  return (
    <span className="text-xs whitespace-nowrap text-base-content/70 tabular-nums">
      <abbr title="Median time to first token of your requests over the last hour" className="no-underline">
        TTFT
      </abbr>{" "}
      <Figure text={formatMs(ms)} />
    </span>
  );
}

/** The model picker of /chat: a listbox of models, each with its status dot and last hour's p50 time to first token. */
export function ModelSelector({
  models,
  selected,
  status,
  firstToken = null,
  onSelect,
}: {
  models: Model[];
  selected: string | null;
  status: StatusMap | null;
  /** Model name → the last hour's p50 time to first token (ms), null without requests; null when unknown. */
  firstToken?: Record<string, number | null> | null;
  onSelect: (name: string) => void;
}) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const current = models.find((m) => m.name === selected);
  useEffect(() => {
    if (!open) return;
    const close = (e: MouseEvent) => {
      if (!root.current?.contains(e.target as Node)) setOpen(false);
    };
    const key = (e: KeyboardEvent) => {
      if (e.key === "Escape") setOpen(false);
    };
    document.addEventListener("mousedown", close);
    document.addEventListener("keydown", key);
    root.current?.querySelector<HTMLElement>('[aria-selected="true"], [role="option"]')?.focus();
    return () => {
      document.removeEventListener("mousedown", close);
      document.removeEventListener("keydown", key);
    };
  }, [open]);
  const move = (e: React.KeyboardEvent, index: number) => {
    const options = root.current?.querySelectorAll<HTMLElement>('[role="option"]');
    if (!options) return;
    if (e.key === "ArrowDown") options[Math.min(options.length - 1, index + 1)]?.focus();
    if (e.key === "ArrowUp") options[Math.max(0, index - 1)]?.focus();
  };
  return (
    <div className="relative" ref={root}>
      <button
        type="button"
        className="btn btn-outline min-w-64 justify-between"
        aria-haspopup="listbox"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
        disabled={models.length === 0}
      >
        <span className="flex items-center gap-2">
          {current ? <StatusDot status={statusOf(status, current.name)} /> : null}
          <span className="sr-only">Model: </span>
          {current ? current.displayName : "Select a model"}
          {current && firstToken ? <FirstTokenFigure ms={firstToken[current.name]} /> : null}
        </span>
        <ChevronDown className="size-4" aria-hidden />
      </button>
      {open && (
        <ul role="listbox" aria-label="Models" className="menu absolute z-30 mt-1 w-96 max-w-[90vw] rounded-box bg-base-100 p-2 shadow-lg">
          {models.map((m, i) => (
            <li key={m.name} role="presentation">
              <button
                type="button"
                role="option"
                aria-selected={m.name === selected}
                className="flex items-center gap-3"
                onKeyDown={(e) => move(e, i)}
                onClick={() => {
                  onSelect(m.name);
                  setOpen(false);
                }}
              >
                <StatusDot status={statusOf(status, m.name)} />
                <span className="flex flex-col items-start">
                  <span>{m.displayName}</span>
                  <span className="font-mono text-xs text-base-content/60">{m.name}</span>
                </span>
                <span className="ml-auto flex items-center gap-2">
                  {firstToken ? <FirstTokenFigure ms={firstToken[m.name]} /> : null}
                  {m.name === selected ? <Check className="size-4" aria-hidden /> : <span className="size-4" aria-hidden />}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
