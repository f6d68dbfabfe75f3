import fs from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import ipaddr from "ipaddr.js";
import { z } from "zod";
import { isDevSignin } from "../platform/config";
import { isLoopbackHost } from "../platform/http/hosts";
import type { OAuthProviderConfig, PlatformConfig } from "../platform/config";
import { databaseUrl, describeDatabase } from "../platform/db/target";

/**
 * A refusal quotes the value as written, so the operator finds the line at fault (never a secret's:
 * SESSION_SECRET, the Stripe keys and DATABASE_URL don't repeat theirs).
 */
const got = (value: string) => `(got ${JSON.stringify(value)})`;

function refuse(ctx: z.RefinementCtx, message: string): never {
  ctx.addIssue({ code: z.ZodIssueCode.custom, message });
  return z.NEVER;
}

/**
 * Every on/off setting reads the same words (`true`/`false`/`1`/`0`, any case): ORG_SIGNUP_ENABLED
 * and LOG_REQUESTS refused the `1` and `0` that ALLOW_DEV_SIGNIN took. Unset (or empty) is the default.
 */
function flag(byDefault: boolean) {
  return z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return byDefault;
      const word = value.trim().toLowerCase();
      if (word === "true" || word === "1") return true;
      if (word === "false" || word === "0") return false;
      return refuse(ctx, `must be true, false, 1 or 0 ${got(value)}`);
    });
}

/**
 * A whole number within bounds; unset (or empty) is undefined, for `.default(…)` to fill. `z.coerce`
 * answered "Expected number, received nan" for a word and read a blank as 0.
 */
function wholeNumber(min: number, max?: number, why = "") {
  const range = max === undefined ? `of at least ${min}` : `from ${min} to ${max}`;
  return z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return undefined;
      const number = /^\s*\d+\s*$/.test(value) ? Number(value) : NaN;
      if (Number.isSafeInteger(number) && number >= min && (max === undefined || number <= max)) return number;
      return refuse(ctx, `must be a whole number ${range} ${got(value)}${why}`);
    });
}

function oneOf<const T extends string>(values: readonly [T, ...T[]]) {
  const words = values.length > 1 ? `${values.slice(0, -1).join(", ")} or ${values[values.length - 1]}` : values[0];
  return z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || (values as readonly string[]).includes(value)) return value as T | undefined;
      return refuse(ctx, `must be ${words} ${got(value)}`);
    });
}

/** A secret of at least 32 characters; the refusal says how long it is, never what it is. */
const secret = z
  .string()
  .optional()
  .refine(
    (v) => v === undefined || v.length >= 32,
    (v) => ({ message: `must be at least 32 characters (it has ${v?.length})` }),
  );

/**
 * Settings read together, by the server and by an operator command: each one's check (`fields`), and
 * the problems of their values side by side (`together`), said the way the field checks say theirs.
 */
export interface SettingsGroup<T extends z.ZodRawShape> {
  fields: T;
  together?: (given: Record<string, string | undefined>) => string[];
}

/**
 * The upstream keys' secrets (platform/models/upstream-keys.ts), as the server and the operator's
 * `reseal-upstream-keys` read them: the keys are sealed with the first and opened with either, the
 * second being the one they were sealed with before, while a rotation or the secret's removal is under
 * way (decision 0118).
 */
export const upstreamKeysSettings = {
  fields: { UPSTREAM_KEYS_SECRET: secret, UPSTREAM_KEYS_SECRET_PREVIOUS: secret },
  together: (given) =>
    // A rotation that was not made: the keys would stay sealed under the secret meant to be replaced.
    given.UPSTREAM_KEYS_SECRET && given.UPSTREAM_KEYS_SECRET === given.UPSTREAM_KEYS_SECRET_PREVIOUS
      ? ["UPSTREAM_KEYS_SECRET_PREVIOUS: the same as UPSTREAM_KEYS_SECRET (give the new secret as UPSTREAM_KEYS_SECRET, the old one here)"]
      : [],
} satisfies SettingsGroup<z.ZodRawShape>;

/**
 * An http:// or https:// URL without a user name or password; unset (or empty) is undefined, for
 * `.default(…)` to fill. Parsing alone took `localhost:3000` (a URL of the scheme `localhost:`): as
 * APP_ORIGIN it failed later with an uncaught TypeError, as PLATFORM_URL every call failed. A user name
 * or password can't work (fetch refuses a URL that has one) and would be printed at start: the refusal
 * doesn't repeat it.
 */
const url = z
  .string()
  .optional()
  .transform((value, ctx) => {
    if (value === undefined) return value;
    if (!URL.canParse(value)) return refuse(ctx, `must be an absolute URL ${got(value)}`);
    const parsed = new URL(value);
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
      // `host:port` parses as the scheme `host:`: say what was probably meant.
      const meant = /^[\w.-]+:\d+(\/|$)/.test(value) ? `; write http://${value} or https://${value}` : "";
      return refuse(ctx, `must be an http:// or https:// URL ${got(value)}${meant}`);
    }
    if (parsed.username || parsed.password) {
      parsed.username = "";
      parsed.password = "";
      return refuse(ctx, `must not contain a user name or password ${got(parsed.href.replace("//", "//…@"))}`);
    }
    return value;
  });

/** A host name alone (Stripe's client takes the port and scheme as settings of their own). */
const hostName = z
  .string()
  .optional()
  .refine(
    (v) => v === undefined || /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)$/i.test(v),
    (v) => ({ message: `must be a host name only, such as api.stripe.com (the port and scheme are STRIPE_API_PORT and STRIPE_API_PROTOCOL) ${got(v ?? "")}` }),
  );

/**
 * A Stripe key or secret, checked by its prefix: a publishable key in the secret's place (or the
 * reverse) is the classic mistake, and Stripe would only refuse it at the first payment. Empty is unset.
 */
function stripeKey(prefixes: string[], what: string) {
  return z
    .string()
    .optional()
    .refine((v) => !v || prefixes.some((p) => v.startsWith(p)), `must be ${what} (${prefixes.map((p) => `${p}…`).join(" or ")})`);
}

const PROXY_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);

/**
 * One entry of a trusted-proxy list, in the forms Express's `proxy-addr` reads: a range's name, an
 * address, or a CIDR block. Not a /0 block (`0.0.0.0/0`, `::/0`): that is everyone, and proxy-addr
 * throws on it at start, with a stack.
 */
function isProxyEntry(entry: string): boolean {
  if (PROXY_NAMES.has(entry) || ipaddr.isValid(entry)) return true;
  try {
    const [, prefix] = ipaddr.parseCIDR(entry);
    return prefix > 0;
  } catch {
    return false;
  }
}

/**
 * Which peers may say who the client is (`X-Forwarded-For`, `-Proto`, `-Host`): Express's "trust proxy"
 * as a number of hops or a list of addresses (decision 0095). Never "everyone": the left of the
 * header is whatever the client wrote.
 */
const trustProxy = z
  .string()
  .default("loopback")
  .transform((value, ctx) => {
    const text = value.trim() || "loopback";
    if (/^\d{1,2}$/.test(text)) return Number(text);
    const entries = text.split(",").map((e) => e.trim().toLowerCase());
    if (entries.every(isProxyEntry)) return entries;
    return refuse(
      ctx,
      `must be a number of proxy hops (1) or a comma-separated list of loopback, linklocal, uniquelocal, addresses and CIDR blocks ${got(value)}`,
    );
  });

/** Every setting the process reads, checked once at start (README lists them). */
const schema = z.object({
  NODE_ENV: oneOf(["development", "production", "test"]).default("development"),
  PORT: wholeNumber(1, 65535).default("3000"),
  HOST: z.string().optional(),
  TRUST_PROXY: trustProxy,
  DATABASE_PATH: z.string().default("data/console.db"),
  DATABASE_URL: databaseUrl,
  PLATFORM_URL: url,
  SESSION_SECRET: secret,
  ...upstreamKeysSettings.fields,
  APP_ORIGIN: url,
  ORG_SIGNUP_ENABLED: flag(true),
  SYSTEM_ADMINS: z.string().default(""),
  ALLOW_DEV_SIGNIN: flag(false),
  LOG_REQUESTS: flag(true),
  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_CLIENT_SECRET: z.string().optional(),
  GOOGLE_AUTHORIZATION_URL: url.default("https://accounts.google.com/o/oauth2/v2/auth"),
  GOOGLE_TOKEN_URL: url.default("https://oauth2.googleapis.com/token"),
  GOOGLE_USERINFO_URL: url.default("https://openidconnect.googleapis.com/v1/userinfo"),
  GITHUB_CLIENT_ID: z.string().optional(),
  GITHUB_CLIENT_SECRET: z.string().optional(),
  GITHUB_AUTHORIZATION_URL: url.default("https://github.com/login/oauth/authorize"),
  GITHUB_TOKEN_URL: url.default("https://github.com/login/oauth/access_token"),
  GITHUB_API_URL: url.default("https://api.github.com"),
  /** JSON list of models to seed the registry with at start (platform/models/service.ts). */
  MODELS_FILE: z.string().optional(),
  /** On SIGTERM/SIGINT, how long in-flight requests and streams may run before they are stopped (server/shutdown.ts). */
  SHUTDOWN_TIMEOUT_MS: wholeNumber(0, 600_000).default("25000"),
  /** The API host is the app host with this prefix swapped for API_HOST_PREFIX (the /chat API examples). */
  APP_HOST_PREFIX: z.string().default(""),
  API_HOST_PREFIX: z.string().default(""),
  STRIPE_SECRET_KEY: stripeKey(["sk_", "rk_"], "a Stripe secret or restricted key"),
  STRIPE_PUBLISHABLE_KEY: stripeKey(["pk_"], "a Stripe publishable key"),
  STRIPE_WEBHOOK_SECRET: stripeKey(["whsec_"], "a Stripe webhook signing secret"),
  STRIPE_API_HOST: hostName,
  STRIPE_API_PORT: wholeNumber(1, 65535),
  STRIPE_API_PROTOCOL: oneOf(["http", "https"]),
  /** Spend control (decision 0084): a chat request's character limit (413 above) and a reservation's lifetime. */
  MAX_REQUEST_CHARS: wholeNumber(1),
  // A running request extends its hold every minute: a lifetime under two minutes would let holds of
  // live requests expire between two extensions.
  RESERVATION_TTL_MS: wholeNumber(120_000, undefined, ": two minutes, since running requests extend their holds every minute"),
});

export type Env = z.infer<typeof schema> & { sessionSecret: string; platform: PlatformConfig };

/** A refusal to start whose message is all the operator needs, on one line (server/index.ts prints it without a stack). */
export class ConfigurationError extends Error {}

function provider(id?: string, secret?: string, urls?: Omit<OAuthProviderConfig, "clientId" | "clientSecret">): OAuthProviderConfig | undefined {
  if (!id || !secret) return undefined;
  return { clientId: id, clientSecret: secret, ...urls! };
}

/** Settings that are fine alone and wrong together, said the way the field checks say theirs. */
function combinationProblems(source: Record<string, string | undefined>): string[] {
  const problems: string[] = [];
  if (source.DATABASE_URL && !source.SESSION_SECRET && !source.PLATFORM_URL) {
    // Several processes share one PostgreSQL database: a secret each process made up for itself would
    // sign sessions the others refuse (sign-in fails behind a load balancer).
    problems.push("SESSION_SECRET: required when DATABASE_URL is set (every process must sign sessions with the same secret, at least 32 characters)");
  }
  if (source.PLATFORM_URL && URL.canParse(source.PLATFORM_URL)) {
    const platform = new URL(source.PLATFORM_URL);
    // The console appends each call's path to it: a query or fragment would make every address wrong.
    if (platform.search || platform.hash) problems.push(`PLATFORM_URL: must not have a query or fragment ${got(source.PLATFORM_URL)}`);
    // Forwarded to itself, every call would come back to this process, and again, until it timed out.
    const port = Number(platform.port || (platform.protocol === "https:" ? 443 : 80));
    const appOrigin = source.APP_ORIGIN && URL.canParse(source.APP_ORIGIN) ? new URL(source.APP_ORIGIN).origin : null;
    if (platform.origin === appOrigin || (LOOPBACK.has(platform.hostname.replace(/^\[|\]$/g, "")) && port === Number(source.PORT ?? 3000))) {
      problems.push(`PLATFORM_URL: is this console's own address ${got(source.PLATFORM_URL)}: give the external platform's`);
    }
  }
  problems.push(...upstreamKeysSettings.together(source));
  for (const name of ["GOOGLE", "GITHUB"]) {
    const [id, secret] = [`${name}_CLIENT_ID`, `${name}_CLIENT_SECRET`];
    // Half a pair would leave that provider off without a word, and development sign-in on if it is the only one.
    if (!source[id] !== !source[secret]) {
      const [given, missing] = source[id] ? [id, secret] : [secret, id];
      problems.push(`${missing} is missing: ${given} is set, and each OAuth provider needs both`);
    }
  }
  return problems;
}

/** A secret generated once and kept beside the database, so sessions survive restarts. */
function persistedSecret(dataDir: string): string {
  const file = path.join(dataDir, "session-secret");
  let kept: string | null = null;
  try {
    kept = fs.readFileSync(file, "utf8").trim();
  } catch {
    // not made yet
  }
  // An empty file is one whose write never landed (a full disk): made again. A short one signs sessions
  // anyone could forge, and is not this program's: the operator decides.
  if (kept !== null && kept.length >= 32) return kept;
  if (kept) {
    throw new ConfigurationError(
      `The session secret in ${file} is shorter than 32 characters: delete the file to have a new one made (everyone signs in again), or set SESSION_SECRET.`,
    );
  }
  const secret = randomBytes(32).toString("hex");
  try {
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    fs.writeFileSync(file, secret, { mode: 0o600 });
  } catch (error) {
    throw new ConfigurationError(
      `Cannot write the session secret to ${file} (the folder of DATABASE_PATH): ${error instanceof Error ? error.message : String(error)}. Make that folder writable, or set SESSION_SECRET.`,
    );
  }
  return secret;
}

export function loadEnv(source: Record<string, string | undefined> = process.env): Env {
  // An empty value is an unset one, whatever the setting: `.env` lines and compose's `${VAR:-}` make
  // them, and SHUTDOWN_TIMEOUT_MS= read as 0 gave a server that drained nothing.
  const given = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== undefined && value.trim() !== ""));
  const parsed = schema.safeParse(given);
  // One line for every problem at once: a log collector takes each line for an entry, and an operator
  // fixing one value at a time would restart once per mistake.
  const problems = [...(parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`)), ...combinationProblems(given)];
  if (!parsed.success || problems.length > 0) throw new ConfigurationError(`Invalid configuration: ${problems.join("; ")}`);
  const env = parsed.data;
  const sessionSecret = env.SESSION_SECRET ?? persistedSecret(path.dirname(path.resolve(env.DATABASE_PATH)));
  const google = provider(env.GOOGLE_CLIENT_ID, env.GOOGLE_CLIENT_SECRET, {
    authorizationEndpoint: env.GOOGLE_AUTHORIZATION_URL,
    tokenEndpoint: env.GOOGLE_TOKEN_URL,
    userEndpoint: env.GOOGLE_USERINFO_URL,
  });
  const github = provider(env.GITHUB_CLIENT_ID, env.GITHUB_CLIENT_SECRET, {
    authorizationEndpoint: env.GITHUB_AUTHORIZATION_URL,
    tokenEndpoint: env.GITHUB_TOKEN_URL,
    userEndpoint: env.GITHUB_API_URL,
  });
  return {
    ...env,
    sessionSecret,
    platform: {
      sessionSecret,
      // The host allow-list, OAuth callbacks and the Origin rule all need one; loopback by default (decision 0083).
      appOrigin: new URL(env.APP_ORIGIN ?? `http://localhost:${env.PORT}`).origin,
      port: env.PORT,
      orgSignupEnabled: env.ORG_SIGNUP_ENABLED,
      systemAdmins: env.SYSTEM_ADMINS.split(",")
        .map((e) => e.trim().toLowerCase())
        .filter(Boolean),
      oauth: { ...(google && { google }), ...(github && { github }) },
      allowDevSignin: env.ALLOW_DEV_SIGNIN,
      maxRequestChars: env.MAX_REQUEST_CHARS,
      reservationTtlMs: env.RESERVATION_TTL_MS,
      ...(env.STRIPE_SECRET_KEY && {
        stripe: {
          secretKey: env.STRIPE_SECRET_KEY,
          publishableKey: env.STRIPE_PUBLISHABLE_KEY || undefined,
          webhookSecret: env.STRIPE_WEBHOOK_SECRET || undefined,
          host: env.STRIPE_API_HOST || undefined,
          port: env.STRIPE_API_PORT,
          protocol: env.STRIPE_API_PROTOCOL,
        },
      }),
    },
  };
}

const LOOPBACK = new Set(["localhost", "127.0.0.1", "::1"]);

/** Where to listen: loopback by default, and only loopback in development sign-in mode unless allowed. */
export function listenHosts(env: Env, devSignin: boolean): string[] {
  if (!env.HOST) return ["127.0.0.1", "::1"];
  if (devSignin && !env.ALLOW_DEV_SIGNIN && !LOOPBACK.has(env.HOST)) {
    throw new Error(
      `Refusing to listen on ${env.HOST}: no sign-in provider is configured, so development sign-in is on and anyone could sign in as anyone. Configure Google or GitHub, or set ALLOW_DEV_SIGNIN=true.`,
    );
  }
  return [env.HOST];
}

/** Settings that start but are probably not what the operator meant: printed at start, never refused. */
export function startupWarnings(env: Env): string[] {
  const warnings: string[] = [];
  if (env.NODE_ENV === "production" && !env.APP_ORIGIN) {
    // Not refused: a container's smoke test starts without it, on localhost.
    warnings.push(
      `APP_ORIGIN is not set: only requests for ${env.platform.appOrigin} are answered (any other host name gets 421) and OAuth callbacks name it. Set APP_ORIGIN to the console's public origin.`,
    );
  }
  const given = env.APP_ORIGIN ? new URL(env.APP_ORIGIN) : undefined;
  if (given && (given.pathname !== "/" || given.search || given.hash)) {
    // Not refused: the origin is still right. But an operator who wrote a path expects the console there.
    warnings.push(
      `APP_ORIGIN has a path (${given.pathname}${given.search}${given.hash}), which is ignored: the console is served from the site root, ${env.platform.appOrigin}/. A proxy in front must not add a path prefix.`,
    );
  }
  if (env.NODE_ENV === "production" && !env.PLATFORM_URL && isDevSignin(env.platform) && env.ALLOW_DEV_SIGNIN && env.HOST && !LOOPBACK.has(env.HOST)) {
    // Allowed (ALLOW_DEV_SIGNIN=true, a trial): said at every start, so it is never left on by mistake.
    // Without ALLOW_DEV_SIGNIN the start is refused (listenHosts), which says it alone.
    const admins = env.platform.systemAdmins.length > 0 ? ", as a system administrator too (SYSTEM_ADMINS)" : "";
    warnings.push(
      `Development sign-in listens on ${env.HOST}: anyone who reaches the console can sign in as anyone${admins}. For a trial only; configure Google or GitHub for real users.`,
    );
  }
  if (
    !env.PLATFORM_URL &&
    isDevSignin(env.platform) &&
    !env.ALLOW_DEV_SIGNIN &&
    (!env.HOST || LOOPBACK.has(env.HOST)) &&
    given &&
    !isLoopbackHost(given.host)
  ) {
    // Development sign-in answers browsers that name this machine by a loopback name only (a proxy on this
    // machine could otherwise pass anyone for it): at this origin nobody can sign in.
    warnings.push(
      `No sign-in provider is configured, so development sign-in is on, and it answers only browsers on this machine at http://localhost:${env.PORT}: nobody can sign in at ${given.origin}. Configure Google or GitHub, or set ALLOW_DEV_SIGNIN=true for a trial.`,
    );
  }
  const modes = [env.STRIPE_SECRET_KEY, env.STRIPE_PUBLISHABLE_KEY].map(stripeMode);
  if (modes[0] && modes[1] && modes[0] !== modes[1]) {
    // Each key is accepted alone; together they are the classic mistake that shows only at the first payment.
    warnings.push(
      `STRIPE_SECRET_KEY is a ${modes[0]} key and STRIPE_PUBLISHABLE_KEY a ${modes[1]} key: a card the form saves in one mode cannot be charged in the other. Use the two keys of one mode.`,
    );
  }
  const stripe = {
    STRIPE_SECRET_KEY: env.STRIPE_SECRET_KEY,
    STRIPE_PUBLISHABLE_KEY: env.STRIPE_PUBLISHABLE_KEY,
    STRIPE_WEBHOOK_SECRET: env.STRIPE_WEBHOOK_SECRET,
  };
  const missing = Object.entries(stripe)
    .filter(([, value]) => !value)
    .map(([name]) => name);
  if (missing.length > 0 && missing.length < 3) {
    // Each half works without the others only in part: no secret key turns payments off (the others
    // are ignored), no webhook secret answers every Stripe delivery 503, no publishable key leaves
    // the card form without Stripe.js.
    warnings.push(`Stripe is partly configured: ${missing.join(" and ")} ${missing.length > 1 ? "are" : "is"} not set. Payments need all three.`);
  }
  return warnings;
}

/**
 * The start-up line: where the server listens, the origin it answers for, and what serves the platform:
 * PLATFORM_URL, or this process with its database (never its password), sign-in providers and Stripe
 * mode, so an operator sees at a glance that a restart took the settings meant.
 */
export function startupLine(env: Env, addresses: readonly string[], devSignin: boolean): string {
  const where = addresses.map((host) => `${host.includes(":") ? `[${host}]` : host}:${env.PORT}`).join(", ");
  const note = devSignin ? " (development sign-in: no identity provider is configured)" : "";
  return `Console listening on ${where}; APP_ORIGIN ${env.platform.appOrigin}${env.PLATFORM_URL ? `; platform ${env.PLATFORM_URL}` : embeddedPlatform(env)}${note}`;
}

function embeddedPlatform(env: Env): string {
  const providers = Object.keys(env.platform.oauth);
  const mode = stripeMode(env.STRIPE_SECRET_KEY);
  return [
    `; database ${describeDatabase({ url: env.DATABASE_URL, path: env.DATABASE_PATH })}`,
    providers.length > 0 ? `; sign-in ${providers.join(", ")}` : "",
    env.STRIPE_SECRET_KEY ? `; Stripe${mode ? ` ${mode}` : ""}` : "",
  ].join("");
}

/** A Stripe key's mode, from its prefix (`sk_test_`, `rk_live_`, `pk_test_`): undefined for a key of neither. */
function stripeMode(key: string | undefined): string | undefined {
  return /^[a-z]+_(test|live)_/.exec(key ?? "")?.[1];
}
