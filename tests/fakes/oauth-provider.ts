import { createHash, randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface FakeIdentity {
  subject: string;
  name: string;
  email: string;
  verified?: boolean;
}

/**
 * A local stand-in for Google's and GitHub's OAuth 2.0 endpoints: /authorize redirects straight back
 * with a code for `nextIdentity`, /token checks client credentials, redirect URI and PKCE, and the user
 * endpoints answer for the issued access token (Google's userinfo, GitHub's /user and /user/emails).
 */
export async function startFakeOAuthProvider(clientId = "client-id", clientSecret = "client-secret") {
  const codes = new Map<string, { identity: FakeIdentity; challenge: string; redirectUri: string }>();
  const tokens = new Map<string, FakeIdentity>();
  const state = { nextIdentity: { subject: "1001", name: "Grace Hopper", email: "grace@example.test", verified: true } as FakeIdentity, tokenRequests: 0 };

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://fake");
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    const bearer = () => tokens.get((req.headers.authorization ?? "").replace(/^Bearer /, ""));

    if (url.pathname === "/authorize") {
      const redirectUri = url.searchParams.get("redirect_uri")!;
      if (url.searchParams.get("client_id") !== clientId || url.searchParams.get("code_challenge_method") !== "S256")
        return json(400, { error: "invalid_request" });
      const code = randomBytes(12).toString("hex");
      codes.set(code, { identity: state.nextIdentity, challenge: url.searchParams.get("code_challenge")!, redirectUri });
      const back = new URL(redirectUri);
      back.searchParams.set("code", code);
      back.searchParams.set("state", url.searchParams.get("state") ?? "");
      res.writeHead(302, { location: back.toString() });
      return res.end();
    }
    if (url.pathname === "/token" && req.method === "POST") {
      state.tokenRequests += 1;
      let raw = "";
      for await (const chunk of req) raw += chunk;
      const body = new URLSearchParams(raw);
      const basic = Buffer.from((req.headers.authorization ?? "").replace(/^Basic /, ""), "base64").toString();
      if (basic !== `${clientId}:${clientSecret}`) return json(401, { error: "invalid_client" });
      const entry = codes.get(body.get("code") ?? "");
      codes.delete(body.get("code") ?? "");
      if (!entry || entry.redirectUri !== body.get("redirect_uri")) return json(400, { error: "invalid_grant" });
      const challenge = createHash("sha256")
        .update(body.get("code_verifier") ?? "")
        .digest("base64url");
      if (challenge !== entry.challenge) return json(400, { error: "invalid_grant" });
      const token = randomBytes(12).toString("hex");
      tokens.set(token, entry.identity);
      return json(200, { access_token: token, token_type: "bearer" });
    }
    if (url.pathname === "/userinfo") {
      const who = bearer();
      if (!who) return json(401, { error: "invalid_token" });
      return json(200, { sub: who.subject, name: who.name, email: who.email, email_verified: who.verified ?? true });
    }
    if (url.pathname === "/user") {
      const who = bearer();
      if (!who) return json(401, { message: "Bad credentials" });
      return json(200, { id: Number(who.subject), login: who.name.toLowerCase().replace(/\s+/g, ""), name: who.name });
    }
    if (url.pathname === "/user/emails") {
      const who = bearer();
      if (!who) return json(401, { message: "Bad credentials" });
      return json(200, [
        { email: `other-${who.email}`, primary: false, verified: true },
        { email: who.email, primary: true, verified: who.verified ?? true },
      ]);
    }
    json(404, { error: "not_found" });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    base,
    state,
    /** The PlatformConfig.oauth entry pointing a provider at this fake. */
    config: (provider: "google" | "github") => ({
      clientId,
      clientSecret,
      authorizationEndpoint: `${base}/authorize`,
      tokenEndpoint: `${base}/token`,
      userEndpoint: provider === "google" ? `${base}/userinfo` : base,
    }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
