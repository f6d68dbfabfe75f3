import { useState } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import { CopyButton } from "~/components/CopyButton";
import { UrlDialog } from "~/components/UrlDialog";
import { chatSnippets } from "./hosts";
import { useTabList } from "~/lib/use-tab-list";

export const API_DIALOG = "api-examples";

/** SPEC §2: cURL, JavaScript and Python for /openai/v1/chat/completions, with a {key} placeholder. */
export function ApiExamplesDialog({ baseUrl, model }: { baseUrl: string; model: string }) {
  const snippets = chatSnippets(baseUrl, model);
  const [tab, setTab] = useState(snippets[0].id);
  const active = snippets.find((s) => s.id === tab) ?? snippets[0];
  const hydrated = useHydrated();
  const { listProps, tabProps } = useTabList();
  return (
    <UrlDialog name={API_DIALOG} title="API examples">
      <p className="mb-3 text-sm text-base-content/70">
        Call <span className="font-mono">{model}</span> from your own code. Replace <span className="font-mono">{"{key}"}</span> with an API token that has the{" "}
        <span className="font-mono">chat</span> scope.
      </p>
      {!hydrated &&
        snippets.map((s) => (
          <section key={s.id} className="mb-3">
            <h3 className="mb-1 font-semibold">{s.label}</h3>
            <pre tabIndex={0} className="max-h-60 overflow-auto rounded-box bg-neutral p-3 text-xs text-neutral-content">
              <code>{s.code}</code>
            </pre>
          </section>
        ))}
      <div hidden={!hydrated} {...listProps} className="tabs tabs-border mb-2" aria-label="Language">
        {snippets.map((s) => (
          <button
            key={s.id}
            type="button"
            {...tabProps(s.id === active.id)}
            className={`tab ${s.id === active.id ? "tab-active" : ""}`}
            onClick={() => setTab(s.id)}
          >
            {s.label}
          </button>
        ))}
      </div>
      <div hidden={!hydrated} role="tabpanel" aria-label={active.label}>
        <pre tabIndex={0} className="max-h-80 overflow-auto rounded-box bg-neutral p-3 text-xs text-neutral-content">
          <code data-testid="api-snippet">{active.code}</code>
        </pre>
        <div className="mt-3 flex justify-end">
          {/* One button per language: a shared one carried cURL's "Copied!" over to the Python snippet. */}
          <CopyButton key={active.id} text={active.code} label={`Copy ${active.label}`} className="btn btn-sm btn-primary" />
        </div>
      </div>
    </UrlDialog>
  );
}
