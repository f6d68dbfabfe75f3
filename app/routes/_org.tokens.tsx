import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import type { ShouldRevalidateFunction } from "@remix-run/react";
import { data } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { CreateTokenForm } from "~/features/tokens/CreateTokenForm";
import { DangerZone } from "~/features/tokens/DangerZone";
import { SecretReveal } from "~/features/tokens/SecretReveal";
import { TokenTable } from "~/features/tokens/TokenTable";
import type { ExpiryChoice } from "~/features/tokens/token-rules";
import { DEFAULT_EXPIRY, expiresAtFor, isExpiryChoice } from "~/features/tokens/token-rules";
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

const tokenForm = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("create"), scopes: z.array(z.string().max(100)).max(50), expiry: z.string().refine(isExpiryChoice, "Choose an expiry: 1 day, 7 days, 30 days or never") }),
  z.object({ intent: z.literal("revoke"), publicId: z.string().min(1).max(100) }),
  z.object({ intent: z.literal("reset") }),
]);

/** SPEC §8 defaults, per form. */
const FAILED = { create: "Failed to create token", revoke: "Failed to revoke token", reset: "Failed to reset token" } as const;
type Intent = keyof typeof FAILED;

export type TokensActionResult =
  | { ok: true; intent: Intent; message: string; secret?: { token: string; publicId: string } }
  | { ok: false; intent: Intent; message: string; values?: { scopes: string[]; expiry: ExpiryChoice } };

function status(code: number) {
  return code >= 500 ? 502 : code;
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { api } = await requireAccess("organization", request, context);
  const formData = await request.formData();
  const fields: Record<string, unknown> & { scopes: string[] } = { ...Object.fromEntries(formData), scopes: formData.getAll("scopes").map(String) };
  const parsed = tokenForm.safeParse(fields);
  if (!parsed.success) {
    const intent: Intent = fields.intent === "revoke" || fields.intent === "reset" ? fields.intent : "create";
    const message = intent === "create" ? (parsed.error.issues[0]?.message ?? FAILED.create) : FAILED[intent];
    const expiry = isExpiryChoice(fields.expiry) ? fields.expiry : DEFAULT_EXPIRY;
    return data<TokensActionResult>({ ok: false, intent, message, values: { scopes: fields.scopes, expiry } }, 400);
  }
  const form = parsed.data;
  const tokens = tokensApi(api);
  if (form.intent === "create") {
    const result = await tokens.create(form.scopes, expiresAtFor(form.expiry as ExpiryChoice, Date.now()));
    if (!result.ok) {
      return data<TokensActionResult>({ ok: false, intent: "create", message: result.error, values: { scopes: form.scopes, expiry: form.expiry as ExpiryChoice } }, status(result.status));
    }
    return data<TokensActionResult>({ ok: true, intent: "create", message: "Token created.", secret: { token: result.data.token, publicId: result.data.publicId } });
  }
  if (form.intent === "revoke") {
    const result = await tokens.revoke(form.publicId);
    if (!result.ok) return data<TokensActionResult>({ ok: false, intent: "revoke", message: result.error }, status(result.status));
    return data<TokensActionResult>({ ok: true, intent: "revoke", message: `Token ${form.publicId} revoked.` });
  }
  const result = await tokens.resetOrganizationToken();
  if (!result.ok) return data<TokensActionResult>({ ok: false, intent: "reset", message: result.error }, status(result.status));
  return data<TokensActionResult>({ ok: true, intent: "reset", message: "Organization token reset.", secret: { token: result.data.token, publicId: result.data.publicId } });
}

export default function ApiTokensPage() {
  const { isAdmin, now, tokens, loadError, scopes, scopesError } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const timeZone = useTimeZone();
  const failed = result && !result.ok ? result : null;
  return (
    <div className="flex flex-col gap-6">
      {loadError ? <Alert kind="error">{loadError}</Alert> : null}
      {failed && failed.intent !== "create" ? <Alert kind="error">{failed.message}</Alert> : null}
      {result?.ok && result.secret ? <SecretReveal title={result.intent === "reset" ? "Organization token reset" : "Token created"} token={result.secret.token} /> : null}
      {result?.ok && !result.secret ? <Alert kind="success">{result.message}</Alert> : null}
      {isAdmin ? (
        <>
          {scopesError ? <Alert kind="error">{scopesError}</Alert> : null}
          {/* A new key after each created token starts the form afresh. */}
          <CreateTokenForm key={result?.ok && result.intent === "create" ? result.secret?.publicId : "create"} scopes={scopes} values={failed?.intent === "create" ? (failed.values ?? null) : null} error={failed?.intent === "create" ? failed.message : null} />
        </>
      ) : null}
      <TokenTable tokens={tokens} isAdmin={isAdmin} now={now} timeZone={timeZone} />
      {isAdmin ? <DangerZone /> : <p className="text-sm text-base-content/60">Only admins can create, revoke or reset tokens.</p>}
    </div>
  );
}
