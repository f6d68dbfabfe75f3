/** What the platform needs to know; server/env.ts fills it from the environment, tests build it by hand. */
export interface OAuthProviderConfig {
  clientId: string;
  clientSecret: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  /** Google: the OpenID userinfo URL. GitHub: the REST API base (…/user, …/user/emails). */
  userEndpoint: string;
}

export interface PlatformConfig {
  /** Signs the short-lived OAuth cookie. */
  sessionSecret: string;
  /** The console's public origin; when absent, each request's own origin is used (platform tests). */
  appOrigin?: string;
  /** The port the server listens on: in development sign-in mode, its loopback origins are the console's too. */
  port?: number;
  orgSignupEnabled: boolean;
  /** Lower-case emails that become admins of the system organization when they sign in. */
  systemAdmins: string[];
  /** Providers with credentials. When none has any, development sign-in is on. */
  oauth: Partial<Record<ProviderName, OAuthProviderConfig>>;
  /** Development sign-in from addresses other than loopback. */
  allowDevSignin: boolean;
  /** The card payment provider; absent: billing answers 503 where it needs Stripe. */
  stripe?: StripeConfig;
  /** A chat request whose messages hold more characters is refused with 413 (default 1,000,000). */
  maxRequestChars?: number;
  /** How long a spend reservation holds before the sweeper releases it (default 5 minutes). */
  reservationTtlMs?: number;
  /** A stream whose upstream is silent this long gets a `: keep-alive` comment (default 15 seconds). */
  streamKeepAliveMs?: number;
  /** How often a running stream's hold is extended and its API token checked again (default a minute). */
  streamRecheckMs?: number;
  /** How often a running stream's output so far is kept with its hold, billed if its process dies (default 10 seconds). */
  streamProgressMs?: number;
  /**
   * How long a model's upstream may stay silent: before its first byte, and between two pieces of its
   * answer (default 300 seconds, UPSTREAM_TIMEOUT_MS). Past it: 504 `upstream_timeout`, or a stream's error event.
   */
  upstreamTimeoutMs?: number;
}

export interface StripeConfig {
  secretKey: string;
  /** Sent to the browser for Stripe.js (`GET /billing/stripe-config`). */
  publishableKey?: string;
  /** Checks the signature of `POST /billing/webhook`. */
  webhookSecret?: string;
  /** Another Stripe API server (tests point these at a local fake). */
  host?: string;
  port?: number;
  protocol?: "http" | "https";
}

export const providerNames = ["google", "github"] as const;
export type ProviderName = (typeof providerNames)[number];

export function isDevSignin(config: Pick<PlatformConfig, "oauth">): boolean {
  return Object.keys(config.oauth).length === 0;
}
