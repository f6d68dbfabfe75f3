import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import type { SubmissionResult } from "@conform-to/react";
import { parseForm } from "~/lib/parse-form";
import type { ShouldRevalidateFunction } from "@remix-run/react";
import { Link, useActionData, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { Plus } from "lucide-react";
import { useRef } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import { z } from "zod";
import { Alert } from "~/components/Alert";
import {
  EMPTY_MODEL_FORM,
  modeOf,
  modelChangedMessage,
  modelFieldErrorsOf,
  modelForm,
  modelGoneMessage,
  valuesOf,
  versionOf,
} from "~/features/system/model-form";
import type { ModelFormValues } from "~/features/system/model-form";
import { ModelForm } from "~/features/system/ModelForm";
import { ModelTable } from "~/features/system/ModelTable";
import { alertText } from "~/features/models/reliability";
import { modelStatuses, systemModelMetrics } from "~/platform/models.server";
import { systemApi } from "~/platform/system.server";
import { requireAccess } from "~/session.server";
import { platformStatus, readForm, redirectWithToast } from "~/lib/actions.server";
import type { RouteHandle } from "~/lib/route-handle";
import { useFocusAfterSubmission } from "~/lib/focus-after-submission";
import { useArrivalKey } from "~/lib/use-arrival";

export const handle: RouteHandle = { title: "Model Editor" };

/**
 * Reload after every submission, refusals included: a 404 (the model deleted meanwhile) or a 409 (a name
 * taken meanwhile) means the list is out of date, and the form follows what the list holds.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, defaultShouldRevalidate }) => (formMethod ? true : defaultShouldRevalidate);

/** `?model=name` opens that model in the form; without it the form adds a model. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { session, api } = await requireAccess("system", request, context);
  const [models, statuses, metrics] = await Promise.all([systemApi(api).models(), modelStatuses(api), systemModelMetrics(api)]);
  const list = models.ok ? models.data.data : [];
  const wanted = new URL(request.url).searchParams.get("model");
  const editing = wanted ? (list.find((m) => m.name === wanted) ?? null) : null;
  return {
    models: list,
    statuses,
    // Issue 17: every organization's figures, and the models past their thresholds over the last 15 minutes.
    metrics: metrics ? Object.fromEntries(metrics.data.map((m) => [m.name, m])) : null,
    alerts: metrics?.alerts ?? [],
    loadError: models.ok ? null : models.error,
    canEdit: session.activeRole === "admin",
    editing,
    missing: wanted && models.ok && !editing ? wanted : null,
  };
}

/** A refused save (conform's answer: field errors and what was typed, never the key) or a refused delete. */
export type ModelEditorResult =
  { intent: "save"; mode: ModelFormValues["mode"]; name: string; message: string; result: SubmissionResult<string[]> } | { intent: "delete"; message: string };

const deleteForm = z.object({ intent: z.literal("delete"), name: z.string().min(1) });

/** The key is write-only: it never travels back to the page, whatever happens. */
const hideFields = ["apiKey"];

export async function action({ request, context }: ActionFunctionArgs) {
  const { api } = await requireAccess("system", request, context);
  const system = systemApi(api);
  const formData = await readForm(request);
  const done = (message: string) => redirectWithToast("/model-editor", { kind: "success", message }, { headers: api.headers });

  if (formData.get("intent") === "delete") {
    const parsed = deleteForm.safeParse(Object.fromEntries(formData));
    if (!parsed.success) return data<ModelEditorResult>({ intent: "delete", message: "Failed to delete model" }, 400);
    const result = await system.deleteModel(parsed.data.name);
    if (!result.ok) return data<ModelEditorResult>({ intent: "delete", message: result.error }, platformStatus(result.status));
    return done(`Model ${parsed.data.name} deleted.`);
  }

  const mode = modeOf(formData.get("mode"));
  const version = mode === "edit" ? versionOf(formData.get("version")) : undefined;
  const submission = parseForm(formData, { schema: modelForm, asTyped: true });
  const typedName = String(formData.get("name") ?? "");
  const refuse = (result: SubmissionResult<string[]>, message = "Check the highlighted fields.", code = 400) =>
    data<ModelEditorResult>({ intent: "save", mode, name: typedName, message, result }, code);
  if (submission.status !== "success") return refuse(submission.reply({ hideFields }));
  const { name, body } = submission.value;
  // The platform checks the mode in the write itself (decision 0126): an add never replaces a model
  // (409 under the name), an edit never brings back one another admin deleted meanwhile (404), nor
  // overwrites one another admin saved since the form was opened (409, decision 0138).
  const saved = await system.saveModel(name, { ...body, mode, ...(version ? { version } : {}) });
  if (!saved.ok) {
    const placed = saved.status === 400 || saved.status === 409 ? modelFieldErrorsOf(saved.fields) : null;
    if (placed)
      return refuse(submission.reply({ fieldErrors: Object.fromEntries(Object.entries(placed).map(([field, message]) => [field, [message]])), hideFields }));
    if (saved.status === 404 && mode === "edit")
      // What was typed stays in the form, now an add: saving again is a deliberate choice to bring it back.
      return data<ModelEditorResult>(
        { intent: "save", mode: "add", name: typedName, message: modelGoneMessage(name), result: submission.reply({ hideFields }) },
        404,
      );
    if (saved.status === 409 && mode === "edit") return refuse(submission.reply({ hideFields }), modelChangedMessage(name), 409);
    return refuse(submission.reply({ hideFields }), saved.error, platformStatus(saved.status));
  }
  return done(mode === "add" ? `Model ${name} added.` : `Model ${name} saved.`);
}

/**
 * A key that is new once a save went through (its redirect arrived, with no answer): the form starts
 * afresh as the page answered without JavaScript does, rather than keep the model just added (a second
 * Add was refused "A model with this name already exists", as if the first had failed). A refusal (an
 * answer) keeps the key, and with it what was typed, beside its errors; so does anything else done on the
 * page (a model deleted from the list keeps what is half typed in the form).
 */
function useFreshFormKey(result: unknown): string {
  const navigation = useNavigation();
  const { key } = useLocation();
  const fresh = useRef(key);
  const saving = useRef(false);
  if (navigation.state !== "idle") {
    if (navigation.formData?.get("intent") === "save") saving.current = true;
  } else if (saving.current) {
    saving.current = false;
    if (result === undefined) fresh.current = key;
  }
  return fresh.current;
}

const SAVING = { intent: "save" } as const;

function hasFieldError(result: SubmissionResult<string[]>): boolean {
  return Object.entries(result.error ?? {}).some(([field, errors]) => field !== "" && (errors?.length ?? 0) > 0);
}

export default function ModelEditorPage() {
  const { models, statuses, metrics, alerts, loadError, canEdit, editing, missing } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const refusedSave = result?.intent === "save" ? result : null;
  const values = editing ? valuesOf(editing) : refusedSave ? { ...EMPTY_MODEL_FORM, mode: refusedSave.mode, name: refusedSave.name } : EMPTY_MODEL_FORM;
  const fresh = useFreshFormKey(result);
  const formKey = editing ? `edit:${editing.name}` : `add:${fresh}`;
  // A refusal answers a submission: it takes focus, which scrolls it into view below the list (decision 0091).
  const arrival = useArrivalKey(result);
  const hydrated = useHydrated();
  // A save answered by a fresh form (the button busy meanwhile) leaves focus nowhere: it goes to the form's first field.
  useFocusAfterSubmission(SAVING, () => document.querySelector<HTMLElement>("[aria-labelledby='model-form-title'] form input:not([type='hidden'])"));
  return (
    <div className="flex flex-col gap-6">
      {alerts.length > 0 ? (
        <Alert kind="warning">
          <div>
            <h2 className="font-semibold">
              {alerts.length === 1 ? "A model passed its alert threshold" : `${alerts.length} alerts: models passed their thresholds`}
            </h2>
            <ul className="mt-1 list-disc pl-5">
              {alerts.map((a) => (
                <li key={`${a.model}:${a.kind}`}>{alertText(a)}</li>
              ))}
            </ul>
          </div>
        </Alert>
      ) : null}
      {loadError ? <Alert kind="error">{loadError}</Alert> : null}
      {result?.intent === "delete" ? (
        <Alert key={arrival} kind="error" focus>
          {result.message}
        </Alert>
      ) : null}
      {missing && !refusedSave ? <Alert kind="warning">There is no model named {missing}.</Alert> : null}
      {/* Labelled: a confirmed delete takes its row away, and focus goes to this heading (focusSectionAfterAction). */}
      <section className="card bg-base-100 shadow-sm" aria-labelledby="models-title">
        <div className="card-body">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <div>
              <h2 id="models-title" className="card-title">
                Models
              </h2>
              <p className="text-sm text-base-content/70">
                Every model in the registry, with its upstream and rate card. Changes apply to every organization at once.
              </p>
            </div>
            {canEdit && editing ? (
              <Link to="." className="btn btn-sm btn-outline" preventScrollReset>
                <Plus className="size-4" aria-hidden /> New model
              </Link>
            ) : null}
          </div>
          <ModelTable models={models} statuses={statuses} metrics={metrics} canEdit={canEdit} editing={editing?.name ?? null} />
        </div>
      </section>
      {canEdit ? (
        <section className="card bg-base-100 shadow-sm" aria-labelledby="model-form-title">
          <div className="card-body">
            <h2 id="model-form-title" className="card-title">
              {values.mode === "edit" ? `Edit ${values.name}` : "Add a model"}
            </h2>
            {refusedSave ? (
              // With JavaScript, a refusal with a field's error leaves focus to the form, which gives it to
              // that field; without it, the browser focuses this message (its `autofocus`).
              <Alert key={arrival} kind="error" focus={!(hydrated && hasFieldError(refusedSave.result))}>
                {refusedSave.message}
              </Alert>
            ) : null}
            <ModelForm
              key={formKey}
              values={values}
              lastResult={refusedSave?.result}
              hasApiKey={Boolean(editing?.hasApiKey ?? models.find((m) => m.name === values.name)?.hasApiKey)}
              version={editing?.version}
            />
          </div>
        </section>
      ) : (
        <>
          {/* A save refused because the person is no longer an admin: the form went with the role, the reason stays. */}
          {refusedSave ? (
            <Alert key={arrival} kind="error" focus>
              {refusedSave.message}
            </Alert>
          ) : null}
          <p className="text-sm text-base-content/60">Only admins of the system organization can change models.</p>
        </>
      )}
    </div>
  );
}
