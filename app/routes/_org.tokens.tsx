import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import type { ShouldRevalidateFunction } from "@remix-run/react";
import { data } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { CreateTokenForm } from "~/features/tokens/CreateTokenForm";
import { DangerZone } from "~/features/tokens/DangerZone";
import { SecretReveal } from "~/features/tokens/SecretReveal";
import { TokenTable } from "~/features/tokens/TokenTable";
import { createTokenForm, tokenIntentForm } from "~/features/tokens/token-forms";
import { expiresAtFor } from "~/features/tokens/token-rules";
import { platformStatus, readForm, redirectWithToast } from "~/lib/actions.server";
import { useTimeZone } from "~/lib/use-time-zone";
import { tokensApi } from "~/platform/tokens.server";
import { requireAccess } from "~/session.server";
import type { RouteHandle } from "./_org";
import { Alert } from "~/components/Alert";

export const handle: RouteHandle = { title: "API Tokens" };
/** Reload after every submission, refusals included: a 409 usually means the list is out of date. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, defaultShouldRevalidate }) => (formMethod ? true : defaultShouldRevalidate);
export const meta: MetaFunction = () => [{ title: "API Tokens · AI Console" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { session, api } = await requireAccess("organization", request, context);
  const isAdmin = session.activeRole === "admin";
  const tokens = tokensApi(api);
  const [list, scopes] = await Promise.all([tokens.list(), isAdmin ? tokens.scopes() : null]);
  return {
    isAdmin,
    // One clock for the page, so the server's and the browser's status and order agree.
    now: Date.now(),
    tokens: list.ok ? list.data : [],
    loadError: list.ok ? null : list.error,
    scopes: scopes?.ok ? scopes.data : [],
    scopesError: scopes && !scopes.ok ? scopes.error : null,
  };
}

/** SPEC §8 defaults, per form. */
const FAILED = { revoke: "Failed to revoke token", reset: "Failed to reset token" } as const;

/** A new secret is shown once, so it travels in action data; everything else redirects with a toast. */
export type TokensActionResult =
  | { ok: true; intent: "create" | "reset"; secret: { token: string; publicId: string } }
  | { ok: false; intent: "create"; result: SubmissionResult<string[]> }
  | { ok: false; intent: keyof typeof FAILED; message: string };

export async function action({ request, context }: ActionFunctionArgs) {
  const { api } = await requireAccess("organization", request, context);
  const formData = await readForm(request);
  const tokens = tokensApi(api);
  if (formData.get("intent") === "create") {
    const submission = parseWithZod(formData, { schema: createTokenForm });
    if (submission.status !== "success") return data<TokensActionResult>({ ok: false, intent: "create", result: submission.reply() }, 400);
    const { scopes, expiry } = submission.value;
    const result = await tokens.create(scopes, expiresAtFor(expiry, Date.now()));
    if (!result.ok) return data<TokensActionResult>({ ok: false, intent: "create", result: submission.reply({ formErrors: [result.error] }) }, platformStatus(result.status));
    return data<TokensActionResult>({ ok: true, intent: "create", secret: { token: result.data.token, publicId: result.data.publicId } });
  }
  const parsed = tokenIntentForm.safeParse(Object.fromEntries(formData));
  if (!parsed.success) {
    const intent = formData.get("intent") === "reset" ? "reset" : "revoke";
    return data<TokensActionResult>({ ok: false, intent, message: FAILED[intent] }, 400);
  }
  const form = parsed.data;
  if (form.intent === "revoke") {
    const result = await tokens.revoke(form.publicId);
    if (!result.ok) return data<TokensActionResult>({ ok: false, intent: "revoke", message: result.error }, platformStatus(result.status));
    return redirectWithToast("/tokens", { kind: "success", message: `Token ${form.publicId} revoked.` }, { headers: api.headers });
  }
  const result = await tokens.resetOrganizationToken();
  if (!result.ok) return data<TokensActionResult>({ ok: false, intent: "reset", message: result.error }, platformStatus(result.status));
  return data<TokensActionResult>({ ok: true, intent: "reset", secret: { token: result.data.token, publicId: result.data.publicId } });
}

export default function ApiTokensPage() {
  const { isAdmin, now, tokens, loadError, scopes, scopesError } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const timeZone = useTimeZone();
  return (
    <div className="flex flex-col gap-6">
      {loadError ? <Alert kind="error">{loadError}</Alert> : null}
      {result && "message" in result ? <Alert kind="error">{result.message}</Alert> : null}
      {result?.ok ? <SecretReveal title={result.intent === "reset" ? "Organization token reset" : "Token created"} token={result.secret.token} /> : null}
      {isAdmin ? (
        <>
          {scopesError ? <Alert kind="error">{scopesError}</Alert> : null}
          {/* A new key after each created token starts the form afresh. */}
          <CreateTokenForm key={result?.ok && result.intent === "create" ? result.secret.publicId : "create"} scopes={scopes} lastResult={result && "result" in result ? result.result : undefined} />
        </>
      ) : null}
      <TokenTable tokens={tokens} isAdmin={isAdmin} now={now} timeZone={timeZone} />
      {isAdmin ? <DangerZone /> : <p className="text-sm text-base-content/60">Only admins can create, revoke or reset tokens.</p>}
    </div>
  );
}
