import { Check, Copy } from "lucide-react";
import { useCopy } from "~/lib/use-copy";

/** A copy button that reads 'Copied!' for 2 seconds after copying; hidden on a page without scripts, where it could not copy. */
export function CopyButton({ text, label = "Copy", className = "btn btn-sm" }: { text: string; label?: string; className?: string }) {
  const { copied, copy } = useCopy();
  return (
    <button type="button" className={`${className} hide-without-script`} onClick={() => void copy(text)} aria-live="polite">
      {copied ? <Check className="size-4" aria-hidden /> : <Copy className="size-4" aria-hidden />}
      {copied ? "Copied!" : label}
    </button>
  );
}
