import { CodeChallengeMethod, OAuth2Client } from "arctic";
import { z } from "zod";
import type { Identity } from "../auth/service";
import type { OAuthProviderConfig, ProviderName } from "../config";

/** An identity provider as the sign-in routes see it: where to send the browser, and how to finish. */
export interface OAuthProvider {
  authorizationURL(redirectURI: string, state: string, verifier: string): URL;
  exchange(redirectURI: string, code: string, verifier: string): Promise<Identity>;
}

const scopes: Record<ProviderName, string[]> = {
  google: ["openid", "email", "profile"],
  github: ["read:user", "user:email"],
};

const googleUser = z.object({
  sub: z.string(),
  name: z.string().optional(),
  email: z.string(),
  email_verified: z.boolean().optional(),
});

const githubUser = z.object({ id: z.number(), login: z.string(), name: z.string().nullable().optional() });
const githubEmails = z.array(z.object({ email: z.string(), primary: z.boolean(), verified: z.boolean() }));

async function getJson(url: string, accessToken: string): Promise<unknown> {
  const response = await fetch(url, {
    headers: { Authorization: `Bearer ${accessToken}`, Accept: "application/json", "User-Agent": "ai-console" },
  });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return response.json();
}

async function fetchIdentity(name: ProviderName, config: OAuthProviderConfig, accessToken: string): Promise<Identity> {
  if (name === "google") {
    const user = googleUser.parse(await getJson(config.userEndpoint, accessToken));
    return { provider: name, subject: user.sub, name: user.name ?? user.email, email: user.email, emailVerified: user.email_verified === true };
  }
  const base = config.userEndpoint.replace(/\/$/, "");
  const user = githubUser.parse(await getJson(`${base}/user`, accessToken));
  const emails = githubEmails.parse(await getJson(`${base}/user/emails`, accessToken));
  const primary = emails.find((e) => e.primary) ?? emails[0];
  return {
    provider: name,
    subject: String(user.id),
    name: user.name || user.login,
    email: primary?.email ?? "",
    emailVerified: primary?.verified === true,
  };
}

/** A real provider: OAuth 2.0 authorization code with PKCE, endpoints from configuration. */
export function oauthProvider(name: ProviderName, config: OAuthProviderConfig): OAuthProvider {
  return {
    authorizationURL(redirectURI, state, verifier) {
      const client = new OAuth2Client(config.clientId, config.clientSecret, redirectURI);
      return client.createAuthorizationURLWithPKCE(config.authorizationEndpoint, state, CodeChallengeMethod.S256, verifier, scopes[name]);
    },
    async exchange(redirectURI, code, verifier) {
      const client = new OAuth2Client(config.clientId, config.clientSecret, redirectURI);
      const tokens = await client.validateAuthorizationCode(config.tokenEndpoint, code, verifier);
      return fetchIdentity(name, config, tokens.accessToken());
    },
  };
}
