import { Bot } from "lucide-react";
import type { AvatarState } from "./avatar";
import { AVATAR_STATE_LABELS } from "./avatar";

const rings: Record<AvatarState, string> = {
  idle: "ring-base-300",
  listening: "ring-error motion-safe:animate-pulse",
  thinking: "ring-warning motion-safe:animate-pulse",
  speaking: "ring-success",
};

/** The avatar's face, with a ring and a label for its state (idle, listening, thinking, speaking). */
export function AvatarFace({ state, size = "lg" }: { state: AvatarState; size?: "md" | "lg" }) {
  const box = size === "lg" ? "size-40" : "size-24";
  return (
    <div className="flex flex-col items-center gap-3">
      <div
        className={`relative grid ${box} place-items-center rounded-full bg-gradient-to-br from-primary to-secondary text-primary-content shadow-lg ring-8 ring-offset-4 ring-offset-base-200 transition ${rings[state]}`}
        aria-hidden
      >
        <Bot className={size === "lg" ? "size-20" : "size-12"} />
        {state === "speaking" ? (
          <span className="absolute -bottom-1 flex gap-1">
            {[0, 1, 2].map((i) => (
              <span key={i} className="h-3 w-1.5 motion-safe:animate-bounce rounded-full bg-success" style={{ animationDelay: `${i * 120}ms` }} />
            ))}
          </span>
        ) : null}
      </div>
      <p className="badge badge-lg" role="status" aria-label={`Avatar is ${state}`} data-state={state}>
        {AVATAR_STATE_LABELS[state]}
      </p>
    </div>
  );
}
