import { ShieldAlert } from "lucide-react";
import type { ReactNode } from "react";
import { CopyButton } from "~/components/CopyButton";
import { useFocusOnArrival } from "~/lib/use-arrival";

/**
 * A new secret, shown this once (it travels only in the action's answer, DESIGN §6). It answers a
 * submission, so it takes focus when it appears, with or without JavaScript (decision 0091).
 */
export function SecretReveal({ title, token, children }: { title: string; token: string; children?: ReactNode }) {
  const focus = useFocusOnArrival<HTMLElement>();
  return (
    <section className="alert alert-warning flex flex-col items-stretch gap-3" aria-labelledby="secret-title" {...focus}>
      <div className="flex items-start gap-3">
        <ShieldAlert className="size-6 shrink-0" aria-hidden />
        <div>
          <h2 id="secret-title" className="font-bold">
            {title}
          </h2>
          <p>Copy this token now and keep it somewhere safe: you will not see it again.</p>
          {children}
        </div>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <code className="min-w-0 flex-1 rounded-box bg-base-100 px-3 py-2 font-mono text-sm break-all text-base-content" aria-label="New token secret">
          {token}
        </code>
        <CopyButton text={token} label="Copy token" className="btn btn-sm" />
      </div>
    </section>
  );
}
