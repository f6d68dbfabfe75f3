import { CodeChallengeMethod, OAuth2Client } from "arctic";
import { html } from "hono/html";
import { z } from "zod";
import type { Deps } from "../context";
import type { ProviderName } from "../config";
import { PlatformError } from "../http/errors";
import type { OAuthProvider } from "../providers/oauth";
import { pkceChallenge, randomToken, sha256 } from "./tokens";

const CODE_TTL_MS = 5 * 60 * 1000;
export const DEV_AUTHORIZE_PATH = "/api/v1/auth/dev/authorize";

/**
 * Development sign-in: the platform plays the identity provider itself, through the same
 * authorization-code-with-PKCE round trip a real provider makes, so a fresh install works offline.
 */
export function devProvider(deps: Deps, name: ProviderName, origin: string): OAuthProvider {
  return {
    authorizationURL(redirectURI, state, verifier) {
      const client = new OAuth2Client(`dev-${name}`, null, redirectURI);
      return client.createAuthorizationURLWithPKCE(`${origin}${DEV_AUTHORIZE_PATH}`, state, CodeChallengeMethod.S256, verifier, []);
    },
    async exchange(redirectURI, code, verifier) {
      // Claim the code in one conditional update: a replayed code finds nothing to claim.
      const row = await deps.db
        .updateTable("dev_auth_codes")
        .set({ used_at: deps.now() })
        .where("code_hash", "=", sha256(code))
        .where("used_at", "is", null)
        .returningAll()
        .executeTakeFirst();
      if (!row) throw new PlatformError(400, "This sign-in code is unknown or was already used");
      if (row.expires_at <= deps.now()) throw new PlatformError(400, "This sign-in code has expired");
      if (row.provider !== name || row.redirect_uri !== redirectURI) throw new PlatformError(400, "This sign-in code was issued for another client");
      if (pkceChallenge(verifier) !== row.code_challenge) throw new PlatformError(400, "PKCE verification failed");
      return { provider: name, subject: `dev:${row.email.toLowerCase()}`, name: row.name, email: row.email, emailVerified: true };
    },
  };
}

export const devAuthorizeForm = z.object({
  client_id: z.string().regex(/^dev-(google|github)$/),
  redirect_uri: z.string().url(),
  state: z.string().min(16).max(200),
  code_challenge: z.string().min(43).max(128),
  code_challenge_method: z.literal("S256"),
  name: z.string().trim().min(1, "Enter a name").max(100, "Enter a name of at most 100 characters"),
  email: z.string().trim().email("Enter a valid email").max(200, "Enter an email of at most 200 characters"),
});

/** Issues a one-time code for the typed identity and returns where to send the browser. */
export async function issueDevCode(deps: Deps, form: z.infer<typeof devAuthorizeForm>, origin: string): Promise<string> {
  const provider = form.client_id.slice(4) as ProviderName;
  const expected = `${origin}/api/v1/auth/${provider}/callback`;
  if (form.redirect_uri !== expected) throw new PlatformError(400, "redirect_uri does not match this client");
  const code = randomToken(24);
  await deps.db
    .insertInto("dev_auth_codes")
    .values({
      code_hash: sha256(code),
      provider,
      name: form.name,
      email: form.email,
      redirect_uri: form.redirect_uri,
      code_challenge: form.code_challenge,
      expires_at: deps.now() + CODE_TTL_MS,
      used_at: null,
    })
    .execute();
  const target = new URL(form.redirect_uri);
  target.searchParams.set("code", code);
  target.searchParams.set("state", form.state);
  return target.toString();
}

const pageStyle = `
  body{font-family:system-ui,sans-serif;background:#f4f4f5;color:#18181b;display:grid;place-items:center;min-height:100vh;margin:0}
  main{background:#fff;border-radius:12px;box-shadow:0 1px 3px #0002;padding:2rem;width:min(24rem,90vw);box-sizing:border-box}
  h1{font-size:1.25rem;margin:0 0 .5rem} p{font-size:.875rem;line-height:1.4}
  .warn{background:#fef3c7;border:1px solid #f59e0b;border-radius:8px;padding:.75rem}
  .error{background:#fee2e2;border:1px solid #ef4444;border-radius:8px;padding:.75rem}
  label{display:block;font-size:.875rem;font-weight:600;margin:1rem 0 .25rem}
  input{width:100%;box-sizing:border-box;padding:.5rem;border:1px solid #d4d4d8;border-radius:6px;font-size:1rem}
  button{margin-top:1.25rem;width:100%;padding:.6rem;border:0;border-radius:6px;background:#4f46e5;color:#fff;font-size:1rem;cursor:pointer}
`;

/** The development provider's page: fields 'Name' and 'Email', button 'Authorize' (DESIGN §3). */
export function devAuthorizePage(params: Record<string, string>, error?: string, values?: { name?: string; email?: string }) {
  const provider = params.client_id?.replace(/^dev-/, "") ?? "";
  const hidden = ["client_id", "redirect_uri", "state", "code_challenge", "code_challenge_method"];
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width,initial-scale=1" />
        <title>Development sign-in</title>
        <style>
          ${pageStyle}
        </style>
      </head>
      <body>
        <main>
          <h1>Development sign-in${provider ? ` (${provider})` : ""}</h1>
          <p class="warn">
            No identity provider is configured, so this server signs people in itself. Anyone who can reach it can sign in as anyone. Use it only on your own
            machine.
          </p>
          ${error ? html`<p class="error" role="alert">${error}</p>` : ""}
          <form method="post" action="${DEV_AUTHORIZE_PATH}">
            ${hidden.map((k) => html`<input type="hidden" name="${k}" value="${params[k] ?? ""}" />`)}
            <label for="name">Name</label><input id="name" name="name" required maxlength="100" autocomplete="name" value="${values?.name ?? ""}" />
            <label for="email">Email</label>
            <input id="email" name="email" type="email" required maxlength="200" autocomplete="email" value="${values?.email ?? ""}" />
            <button type="submit">Authorize</button>
          </form>
        </main>
      </body>
    </html>`;
}
