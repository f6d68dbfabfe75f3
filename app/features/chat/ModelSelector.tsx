import { Check, ChevronDown } from "lucide-react";
import type { FocusEvent, KeyboardEvent, RefObject } from "react";
import { useEffect, useId, useRef, useState } from "react";
import { StatusDot } from "~/features/models/StatusDot";
import type { StatusMap } from "~/features/models/status";
import { statusOf } from "~/features/models/status";
import type { RovingMoves } from "~/lib/roving-focus";
import { moveFocus } from "~/lib/roving-focus";
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

const MOVES: RovingMoves = {
  ArrowDown: (i, n) => Math.min(n - 1, i + 1),
  ArrowUp: (i) => Math.max(0, i - 1),
  Home: () => 0,
  End: (_i, n) => n - 1,
};

/**
 * The model picker of /chat: a button (named "Model" by the label beside it) opening a listbox of
 * models, each with its status (dot and word) and last hour's p50 time to first token. The listbox
 * pattern of WAI-ARIA: one Tab stop (the option reached last, the selected one on opening), the arrow
 * keys, Home and End move along the options; Escape or a choice closes it and gives focus back to the
 * button; focus leaving it closes it too.
 */
export function ModelSelector({
  models,
  selected,
  status,
  firstToken = null,
  onSelect,
  buttonRef,
}: {
  models: Model[];
  selected: string | null;
  status: StatusMap | null;
  /** Model name → the last hour's p50 time to first token (ms), null without requests; null when unknown. */
  firstToken?: Record<string, number | null> | null;
  onSelect: (name: string) => void;
  /** The picker's button, for a page that hands it focus (the chosen model was removed). */
  buttonRef?: RefObject<HTMLButtonElement>;
}) {
  const [open, setOpen] = useState(false);
  const selectedIndex = Math.max(
    0,
    models.findIndex((m) => m.name === selected),
  );
  const [active, setActive] = useState(selectedIndex);
  const root = useRef<HTMLDivElement>(null);
  const ownTrigger = useRef<HTMLButtonElement>(null);
  const trigger = buttonRef ?? ownTrigger;
  const id = useId();
  const current = models.find((m) => m.name === selected);
  const close = (focusTrigger: boolean) => {
    setOpen(false);
    if (focusTrigger) trigger.current?.focus();
  };
  useEffect(() => {
    if (!open) return;
    const outside = (e: MouseEvent) => {
      if (!root.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener("mousedown", outside);
    return () => document.removeEventListener("mousedown", outside);
  }, [open]);
  useEffect(() => {
    if (open) root.current?.querySelector<HTMLElement>('[role="option"][tabindex="0"]')?.focus();
  }, [open]);
  const onListKeyDown = (e: KeyboardEvent<HTMLUListElement>) => {
    if (e.key === "Escape") {
      // Not also a Stop of the reply streaming meanwhile (the page listens for Escape on window).
      e.stopPropagation();
      close(true);
      return;
    }
    if (e.key === "Tab" && e.shiftKey) {
      // Back to the button, closing on the way (Tab forward leaves the picker: the blur closes it).
      e.preventDefault();
      close(true);
      return;
    }
    moveFocus(e, '[role="option"]', MOVES);
  };
  const onListBlur = (e: FocusEvent<HTMLUListElement>) => {
    if (!root.current?.contains(e.relatedTarget as Node | null)) setOpen(false);
  };
  return (
    <div className="relative flex max-w-full min-w-0 flex-wrap items-center gap-x-2 gap-y-1" ref={root}>
      <span id={`${id}-label`} className="text-sm font-medium">
        Model
      </span>
      <button
        type="button"
        ref={trigger}
        id={`${id}-button`}
        className="btn h-auto min-h-10 max-w-full justify-between py-1.5 text-left whitespace-normal btn-outline sm:min-w-64"
        aria-haspopup="listbox"
        aria-expanded={open}
        aria-labelledby={`${id}-label ${id}-button`}
        onClick={() => {
          setActive(selectedIndex);
          setOpen(!open);
        }}
        disabled={models.length === 0}
      >
        <span className="flex flex-wrap items-center gap-x-2">
          {current ? current.displayName : "Select a model"}
          {current ? <StatusDot status={statusOf(status, current.name)} className="text-xs font-normal" tooltip={false} /> : null}
          {current && firstToken ? <FirstTokenFigure ms={firstToken[current.name]} /> : null}
        </span>
        <ChevronDown className="size-4" aria-hidden />
      </button>
      {open && (
        <ul
          role="listbox"
          aria-label="Models"
          className="menu absolute top-full left-0 z-30 mt-1 w-96 max-w-[90vw] rounded-box bg-base-100 p-2 shadow-lg"
          onKeyDown={onListKeyDown}
          onBlur={onListBlur}
        >
          {models.map((m, i) => (
            <li key={m.name} role="presentation">
              <button
                type="button"
                role="option"
                aria-selected={m.name === selected}
                tabIndex={i === active ? 0 : -1}
                className="flex items-center gap-3"
                onFocus={() => setActive(i)}
                onClick={() => {
                  onSelect(m.name);
                  close(true);
                }}
              >
                <span className="flex flex-col items-start">
                  <span>{m.displayName}</span>
                  <span className="font-mono text-xs text-base-content/60">{m.name}</span>
                </span>
                <span className="ml-auto flex items-center gap-2">
                  <StatusDot status={statusOf(status, m.name)} className="text-xs" tooltip={false} />
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
