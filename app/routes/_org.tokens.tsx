import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import type { ShouldRevalidateFunction } from "@remix-run/react";
import { data } from "@remix-run/node";
import { useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useCallback, useEffect, useRef, useState } from "react";
import type { SubmissionResult } from "@conform-to/react";
import { parseForm } from "~/lib/parse-form";
import { CreateTokenForm } from "~/features/tokens/CreateTokenForm";
import { DangerZone } from "~/features/tokens/DangerZone";
import { SecretReveal } from "~/features/tokens/SecretReveal";
import { TokenTable } from "~/features/tokens/TokenTable";
import { TokenSettingsForm } from "~/features/tokens/TokenSettingsForm";
import { createTokenForm, SETTINGS_FORM_FIELD, settingsOf, tokenIntentForm, tokenSettingsForm } from "~/features/tokens/token-forms";
import { expiresAtFor } from "~/features/tokens/token-rules";
import { platformStatus, readForm, redirectWithToast } from "~/lib/actions.server";
import { useTimeZone } from "~/lib/use-time-zone";
import { formatDateTime } from "~/lib/datetime";
import { listModels } from "~/platform/models.server";
import { tokensApi } from "~/platform/tokens.server";
import { tokenPage, tokenPageNumber, tokensHref } from "~/features/tokens/token-page";
import { getTokenSpend } from "~/platform/usage.server";
import { requireAccess } from "~/session.server";
import type { RouteHandle } from "~/lib/route-handle";
import { Alert } from "~/components/Alert";
import { FormRefusalAlert } from "~/components/FormRefusalAlert";
import { useArrivalKey } from "~/lib/use-arrival";
import { usePageOrganizationId } from "~/features/auth/PageOrganizationField";

export const handle: RouteHandle = { title: "API Tokens" };
/** Reload after every submission, refusals included: a 409 usually means the list is out of date. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, defaultShouldRevalidate }) => (formMethod ? true : defaultShouldRevalidate);

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { session, api } = await requireAccess("organization", request, context);
  const isAdmin = session.activeRole === "admin";
  const tokens = tokensApi(api);
  const url = new URL(request.url);
  const [list, scopes, models, monthSpend] = await Promise.all([
    tokens.list(),
    isAdmin ? tokens.scopes() : null,
    isAdmin ? listModels(api) : null,
    getTokenSpend(api),
  ]);
  // One clock for the page, so the server's and the browser's status and order agree.
  const now = Date.now();
  const page = list.ok ? tokenPage(list.data, now, tokenPageNumber(url)) : null;
  // The token whose settings are open (`?edit=publicId`: a link, so it works without JavaScript).
  const editing = isAdmin ? url.searchParams.get("edit") : null;
  return {
    // This page's tokens' figures only: the page's data grows with the page, not with the organization.
    monthSpend: monthSpend && page ? Object.fromEntries(page.tokens.map((t) => [t.publicId, monthSpend[t.publicId] ?? 0])) : monthSpend,
    edited: editing && list.ok ? (list.data.find((t) => t.publicId === editing && !t.revoked) ?? null) : null,
    models: models?.ok ? models.models.map((m) => m.name) : [],
    isAdmin,
    now,
    // Null when the list failed: the page says so, not "No tokens yet." (every organization has one).
    page,
    loadError: list.ok ? null : list.error,
    // What a reset is made from: a second reset at once is refused, not a secret that never works.
    primaryVersion: list.ok ? list.data.find((t) => t.primary)?.version : undefined,
    scopes: scopes?.ok ? scopes.data : [],
    scopesError: scopes && !scopes.ok ? scopes.error : null,
  };
}

/** SPEC §8 defaults, per form. */
const FAILED = { revoke: "Failed to revoke token", reset: "Failed to reset token", roll: "Failed to roll token" } as const;

/** A new secret is shown once, so it travels in action data; everything else redirects with a toast. */
export type TokensActionResult =
  | { ok: true; intent: "create" | "reset"; secret: { token: string; publicId: string } }
  | { ok: true; intent: "roll"; secret: { token: string; publicId: string }; oldSecretUntil: number | null }
  | { ok: false; intent: "create" | "settings"; result: SubmissionResult<string[]> }
  | { ok: false; intent: keyof typeof FAILED; message: string };

export async function action({ request, context }: ActionFunctionArgs) {
  const { api } = await requireAccess("organization", request, context);
  // Back to the page of the list the form was on (its settings closed).
  const back = tokensHref({ page: tokenPageNumber(new URL(request.url)) });
  const formData = await readForm(request);
  const tokens = tokensApi(api);
  if (formData.get("intent") === "create") {
    const submission = parseForm(formData, { schema: createTokenForm });
    if (submission.status !== "success") return data<TokensActionResult>({ ok: false, intent: "create", result: submission.reply() }, 400);
    const { scopes, expiry, ...settings } = submission.value;
    const result = await tokens.create({ scopes, expiresAt: expiresAtFor(expiry, Date.now()), ...settingsOf(settings) });
    if (!result.ok)
      return data<TokensActionResult>({ ok: false, intent: "create", result: submission.reply({ formErrors: [result.error] }) }, platformStatus(result.status));
    return data<TokensActionResult>({ ok: true, intent: "create", secret: { token: result.data.token, publicId: result.data.publicId } });
  }
  if (formData.get("intent") === "settings") {
    const submission = parseForm(formData, { schema: tokenSettingsForm });
    if (submission.status !== "success") return data<TokensActionResult>({ ok: false, intent: "settings", result: submission.reply() }, 400);
    const result = await tokens.updateSettings(submission.value.publicId, settingsOf(submission.value));
    if (!result.ok) {
      const fieldErrors = Object.fromEntries(Object.entries(result.fields ?? {}).map(([path, message]) => [SETTINGS_FORM_FIELD[path] ?? path, [message]]));
      const reply = Object.keys(fieldErrors).length > 0 ? submission.reply({ fieldErrors }) : submission.reply({ formErrors: [result.error] });
      return data<TokensActionResult>({ ok: false, intent: "settings", result: reply }, platformStatus(result.status));
    }
    return redirectWithToast(back, { kind: "success", message: `Settings of ${submission.value.publicId} saved.` }, { headers: api.headers });
  }
  const parsed = tokenIntentForm.safeParse(Object.fromEntries(formData));
  if (!parsed.success) {
    const named = formData.get("intent");
    const intent = named === "reset" || named === "roll" ? named : "revoke";
    return data<TokensActionResult>({ ok: false, intent, message: FAILED[intent] }, 400);
  }
  const form = parsed.data;
  if (form.intent === "revoke") {
    const result = await tokens.revoke(form.publicId);
    if (!result.ok) return data<TokensActionResult>({ ok: false, intent: "revoke", message: result.error }, platformStatus(result.status));
    return redirectWithToast(back, { kind: "success", message: `Token ${form.publicId} revoked.` }, { headers: api.headers });
  }
  if (form.intent === "roll") {
    const result = await tokens.roll(form.publicId, form.grace, form.version);
    if (!result.ok) return data<TokensActionResult>({ ok: false, intent: "roll", message: result.error }, platformStatus(result.status));
    const secret = { token: result.data.token, publicId: result.data.publicId };
    return data<TokensActionResult>({ ok: true, intent: "roll", secret, oldSecretUntil: result.data.previousSecretExpiresAt ?? null });
  }
  const result = await tokens.resetOrganizationToken(form.version);
  if (!result.ok) return data<TokensActionResult>({ ok: false, intent: "reset", message: result.error }, platformStatus(result.status));
  return data<TokensActionResult>({ ok: true, intent: "reset", secret: { token: result.data.token, publicId: result.data.publicId } });
}

const SECRET_TITLES = { create: "Token created", reset: "Organization token reset", roll: "Token rolled" } as const;

function RolledNote({ publicId, until, timeZone }: { publicId: string; until: number | null; timeZone: string }) {
  return (
    <p>
      {until === null
        ? `The previous secret of ${publicId} is refused from now on.`
        : `The previous secret of ${publicId} keeps working until ${formatDateTime(until, timeZone)}, then it is refused.`}
    </p>
  );
}

type RevealedSecret = Extract<TokensActionResult, { ok: true }> & { arrival: number; organizationId: number | undefined };

/**
 * The last secret an action answered, kept while the person stays on /tokens: a token's Settings is a
 * link (/tokens?edit=…), and a navigation drops the action's data, so opening the new token's
 * Settings used to lose a secret that can't be shown again. Leaving the page forgets it. It is shown
 * only while its organization is the page's (the switcher keeps the page): under another one's name,
 * it would be pasted where its calls bill the first.
 */
function useRevealedSecret(result: TokensActionResult | undefined, arrival: number): RevealedSecret | null {
  const organizationId = usePageOrganizationId();
  const [revealed, setRevealed] = useState<RevealedSecret | null>(result?.ok ? { ...result, arrival, organizationId } : null);
  if (result?.ok && revealed?.arrival !== arrival) {
    const next = { ...result, arrival, organizationId };
    setRevealed(next);
    return next;
  }
  return revealed && revealed.organizationId === organizationId ? revealed : null;
}

/**
 * Settings saved or cancelled take the form away, and with it the focus: it goes back to the token's
 * own Settings link, where the person came from (as after a revoke, 0098), not to the page's start.
 * Only a form left from inside (Save sent, Cancel): one closed by something else (a revoke of another
 * token) leaves focus to that. A save refused keeps the form open, and forgets it was left.
 */
function useFocusBackFromSettings(editing: string | null): (publicId: string) => void {
  const left = useRef<string | null>(null);
  const idle = useNavigation().state === "idle";
  useEffect(() => {
    const publicId = left.current;
    if (!publicId || !idle) return;
    left.current = null;
    if (editing === publicId) return;
    document.querySelector<HTMLElement>(`tr[data-token="${CSS.escape(publicId)}"] a[href*="edit="]`)?.focus();
  });
  return useCallback((publicId: string) => {
    left.current = publicId;
  }, []);
}

export default function ApiTokensPage() {
  const { isAdmin, now, page, loadError, scopes, scopesError, edited, models, monthSpend, primaryVersion } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const arrival = useArrivalKey(result);
  const revealed = useRevealedSecret(result, arrival);
  const leaveSettings = useFocusBackFromSettings(edited?.publicId ?? null);
  const timeZone = useTimeZone();
  return (
    <div className="flex flex-col gap-6">
      {loadError ? <Alert kind="error">{loadError}</Alert> : null}
      {result && "message" in result ? (
        <Alert key={arrival} kind="error" focus>
          {result.message}
        </Alert>
      ) : null}
      {revealed ? (
        <SecretReveal key={revealed.arrival} title={SECRET_TITLES[revealed.intent]} token={revealed.secret.token}>
          {revealed.intent === "roll" ? <RolledNote publicId={revealed.secret.publicId} until={revealed.oldSecretUntil} timeZone={timeZone} /> : null}
        </SecretReveal>
      ) : null}
      {!isAdmin && result && !result.ok && "result" in result ? <FormRefusalAlert key={arrival} result={result.result} /> : null}
      {isAdmin ? (
        <>
          {scopesError ? <Alert kind="error">{scopesError}</Alert> : null}
          {/* A new key after each created token starts the form afresh. */}
          {edited ? (
            <TokenSettingsForm
              key={edited.publicId}
              token={edited}
              page={page?.page ?? 1}
              onLeave={leaveSettings}
              models={models}
              lastResult={result && "result" in result && result.intent === "settings" ? result.result : undefined}
            />
          ) : null}
          <CreateTokenForm
            key={result?.ok && result.intent === "create" ? result.secret.publicId : "create"}
            scopes={scopes}
            models={models}
            lastResult={result && "result" in result && result.intent === "create" ? result.result : undefined}
          />
        </>
      ) : null}
      {page ? <TokenTable page={page} isAdmin={isAdmin} now={now} timeZone={timeZone} monthSpend={monthSpend} /> : null}
      {isAdmin ? <DangerZone version={primaryVersion} /> : <p className="text-sm text-base-content/60">Only admins can create, revoke or reset tokens.</p>}
    </div>
  );
}
