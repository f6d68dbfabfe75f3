import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { Plus } from "lucide-react";
import { z } from "zod";
import { EMPTY_MODEL_FORM, fieldOfPlatformError, parseModelForm, readModelForm, valuesOf } from "~/features/system/model-form";
import type { ModelFieldErrors, ModelFormValues } from "~/features/system/model-form";
import { ModelForm } from "~/features/system/ModelForm";
import { ModelTable } from "~/features/system/ModelTable";
import { modelStatuses } from "~/platform/models.server";
import { systemApi } from "~/platform/system.server";
import { requireAccess } from "~/session.server";
import { toastHeader } from "~/toast.server";
import type { RouteHandle } from "./_org";

export const handle: RouteHandle = { title: "Model Editor" };
export const meta: MetaFunction = () => [{ title: "Model Editor · AI Console" }];

/** `?model=name` opens that model in the form; without it the form adds a model. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { session, api } = await requireAccess("system", request, context);
  const [models, statuses] = await Promise.all([systemApi(api).models(), modelStatuses(api)]);
  const list = models.ok ? models.data.data : [];
  const wanted = new URL(request.url).searchParams.get("model");
  const editing = wanted ? (list.find((m) => m.name === wanted) ?? null) : null;
  return {
    models: list,
    statuses,
    loadError: models.ok ? null : models.error,
    canEdit: session.activeRole === "admin",
    editing,
    missing: wanted && models.ok && !editing ? wanted : null,
  };
}

export type ModelEditorResult = { ok: false; intent: "save" | "delete"; message: string; errors?: ModelFieldErrors; values?: ModelFormValues };

const deleteForm = z.object({ intent: z.literal("delete"), name: z.string().min(1) });

function status(code: number) {
  return code >= 500 ? 502 : code;
}

async function redirectWithToast(headers: Headers, message: string) {
  headers.append("Set-Cookie", await toastHeader({ kind: "success", message }));
  return redirect("/model-editor", { headers });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { api } = await requireAccess("system", request, context);
  const system = systemApi(api);
  const fields = Object.fromEntries(await request.formData());

  if (fields.intent === "delete") {
    const parsed = deleteForm.safeParse(fields);
    if (!parsed.success) return data<ModelEditorResult>({ ok: false, intent: "delete", message: "Failed to delete model" }, 400);
    const result = await system.deleteModel(parsed.data.name);
    if (!result.ok) return data<ModelEditorResult>({ ok: false, intent: "delete", message: result.error }, status(result.status));
    return redirectWithToast(api.headers, `Model ${parsed.data.name} deleted.`);
  }

  // The key never travels back to the page, whatever happens.
  const values = readModelForm(fields);
  const shown = { ...values, apiKey: "" };
  const refuse = (errors: ModelFieldErrors, message = "Check the highlighted fields.", code = 400) =>
    data<ModelEditorResult>({ ok: false, intent: "save", message, errors, values: shown }, code);
  const parsed = parseModelForm(values);
  if (!parsed.ok) return refuse(parsed.errors);
  if (values.mode === "add") {
    const current = await system.models();
    if (current.ok && current.data.data.some((m) => m.name === parsed.name)) return refuse({ name: "A model with this name already exists" });
  }
  const saved = await system.saveModel(parsed.name, parsed.body);
  if (!saved.ok) {
    const placed = saved.status === 400 ? fieldOfPlatformError(saved.error) : null;
    return placed ? refuse({ [placed.field]: placed.message }) : refuse({}, saved.error, status(saved.status));
  }
  return redirectWithToast(api.headers, values.mode === "add" ? `Model ${parsed.name} added.` : `Model ${parsed.name} saved.`);
}

export default function ModelEditorPage() {
  const { models, statuses, loadError, canEdit, editing, missing } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const refusedSave = result?.intent === "save" ? result : null;
  const values = refusedSave?.values ?? (editing ? valuesOf(editing) : EMPTY_MODEL_FORM);
  const formKey = refusedSave?.values ? `${values.mode}:${values.name}:refused` : editing ? `edit:${editing.name}` : "add";
  return (
    <div className="flex flex-col gap-6">
      {loadError ? (
        <div role="alert" className="alert alert-error">
          {loadError}
        </div>
      ) : null}
      {result?.intent === "delete" ? (
        <div role="alert" className="alert alert-error">
          {result.message}
        </div>
      ) : null}
      {missing ? (
        <div role="alert" className="alert alert-warning">
          There is no model named {missing}.
        </div>
      ) : null}
      <section className="card bg-base-100 shadow-sm">
        <div className="card-body">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <div>
              <h2 className="card-title">Models</h2>
              <p className="text-sm text-base-content/70">Every model in the registry, with its upstream and rate card. Changes apply to every organization at once.</p>
            </div>
            {canEdit && editing ? (
              <Link to="." className="btn btn-sm btn-outline" preventScrollReset>
                <Plus className="size-4" aria-hidden /> New model
              </Link>
            ) : null}
          </div>
          <ModelTable models={models} statuses={statuses} canEdit={canEdit} editing={editing?.name ?? null} />
        </div>
      </section>
      {canEdit ? (
        <section className="card bg-base-100 shadow-sm" aria-labelledby="model-form-title">
          <div className="card-body">
            <h2 id="model-form-title" className="card-title">
              {values.mode === "edit" ? `Edit ${values.name}` : "Add a model"}
            </h2>
            {refusedSave ? (
              <div role="alert" className="alert alert-error">
                {refusedSave.message}
              </div>
            ) : null}
            <ModelForm key={formKey} values={values} errors={refusedSave?.errors ?? {}} hasApiKey={Boolean(editing?.hasApiKey ?? models.find((m) => m.name === values.name)?.hasApiKey)} />
          </div>
        </section>
      ) : (
        <p className="text-sm text-base-content/60">Only admins of the system organization can change models.</p>
      )}
    </div>
  );
}
