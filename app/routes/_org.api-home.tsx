import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { Activity, Boxes, Gauge, KeyRound, PiggyBank } from "lucide-react";
import { useState } from "react";
import { CopyButton } from "~/components/CopyButton";
import { apiBaseUrl } from "~/features/chat/hosts";
import type { EndpointId, SampleLanguage } from "~/features/demos/api-samples";
import { API_STATS, ENDPOINTS, SAMPLE_LANGUAGES, endpointSample, sampleChatModel } from "~/features/demos/api-samples";
import { listModels } from "~/platform/models.server";
import { requireAccess } from "~/session.server";
import type { RouteHandle } from "~/lib/route-handle";
import { useTabList } from "~/lib/use-tab-list";

export const handle: RouteHandle = { title: "API" };

/**
 * The public OpenAI-compatible API of this install is mounted under /openai (its paths are /v1/…), on
 * the API host the chat's examples use; the chat sample names one of the models it serves.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { api } = await requireAccess("organization", request, context);
  const models = await listModels(api);
  const { app: appHostPrefix, api: apiHostPrefix } = context.hostPrefixes;
  return {
    baseUrl: apiBaseUrl(request.url, appHostPrefix, apiHostPrefix).replace(/\/v1$/, ""),
    chatModel: sampleChatModel(models.ok ? models.models : []),
  };
}

const statIcons = [Activity, Gauge, PiggyBank, Boxes];
const languageLabels: Record<SampleLanguage, string> = { curl: "curl", python: "python", javascript: "javascript" };

/** SPEC §2 /api-home: static stats and copyable samples for three endpoints in three languages. */
export default function ApiHomePage() {
  const { baseUrl, chatModel } = useLoaderData<typeof loader>();
  return (
    <section className="flex flex-col gap-8">
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h2 className="text-3xl font-bold">One API for every model</h2>
          <p className="text-base-content/70">OpenAI-compatible endpoints for text, images and audio. Authenticate with a bearer API token.</p>
        </div>
        <Link to="/tokens" className="btn btn-primary">
          <KeyRound className="size-4" aria-hidden /> Create an API token
        </Link>
      </header>
      <dl className="stats stats-vertical w-full bg-base-100 shadow-sm md:stats-horizontal">
        {API_STATS.map((s, i) => {
          const Icon = statIcons[i];
          return (
            <div key={s.label} className="stat">
              <dt className="stat-title">{s.label}</dt>
              <dd className="stat-value">{s.value}</dd>
              <dd className="stat-desc">{s.note}</dd>
              {/* Only dt and dd may sit in a dl's group (axe definition-list); the grid places the icon. */}
              <dd className="stat-figure text-primary" aria-hidden>
                <Icon className="size-8" />
              </dd>
            </div>
          );
        })}
      </dl>
      {ENDPOINTS.map((e) => (
        <EndpointSamples
          key={e.id}
          id={e.id}
          title={e.title}
          method={e.method}
          path={e.path}
          servedHere={e.servedHere}
          baseUrl={baseUrl}
          chatModel={chatModel}
        />
      ))}
    </section>
  );
}

interface EndpointSamplesProps {
  id: EndpointId;
  title: string;
  method: string;
  path: string;
  servedHere: boolean;
  baseUrl: string;
  chatModel: string;
}

function EndpointSamples({ id, title, method, path, servedHere, baseUrl, chatModel }: EndpointSamplesProps) {
  const [language, setLanguage] = useState<SampleLanguage>("curl");
  const { listProps, tabProps } = useTabList();
  const code = endpointSample(id, language, baseUrl, chatModel);
  return (
    <section className="card bg-base-100 shadow-sm" aria-labelledby={`endpoint-${id}`}>
      <div className="card-body gap-3">
        <div className="flex flex-wrap items-center gap-3">
          <h3 id={`endpoint-${id}`} className="card-title">
            {title}
          </h3>
          <code className="badge badge-neutral h-auto font-mono [overflow-wrap:anywhere]">
            {method} /openai{path}
          </code>
          {servedHere ? null : <span className="badge badge-outline">Example</span>}
          {/* Switching language runs in the browser: without scripts the tabs would do nothing, so only curl shows. */}
          <div {...listProps} aria-label={`${title} language`} className="tabs tabs-box tabs-sm ml-auto hide-without-script">
            {SAMPLE_LANGUAGES.map((l) => (
              <button
                key={l}
                type="button"
                {...tabProps(l === language)}
                className={`tab ${l === language ? "tab-active" : ""}`}
                onClick={() => setLanguage(l)}
              >
                {languageLabels[l]}
              </button>
            ))}
          </div>
        </div>
        {servedHere ? (
          <p className="text-sm text-base-content/70">Runs as shown against this console once {"{key}"} is one of your API tokens.</p>
        ) : (
          <p className="text-sm text-base-content/70">An example of the API&apos;s shape: this install does not serve this endpoint yet.</p>
        )}
        {/* The button sits above the code, not over it: the code scrolls sideways under an overlay. */}
        <div className="rounded-box bg-neutral text-neutral-content">
          <div className="flex justify-end px-2 pt-2">
            <CopyButton text={code} className="btn btn-sm btn-ghost text-neutral-content" label="Copy" />
          </div>
          <pre tabIndex={0} className="overflow-x-auto p-4 pt-2 text-sm" aria-label={`${title} ${language} sample`}>
            <code>{code}</code>
          </pre>
        </div>
      </div>
    </section>
  );
}
