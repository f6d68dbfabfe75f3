import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { isAllowedOrigin } from "../platform/http/origin";
import { ConfigurationError, listenHosts, loadEnv, startupLine, startupWarnings } from "./env";

const base = { DATABASE_PATH: path.join(os.tmpdir(), `env-test-${process.pid}`, "db.sqlite"), SESSION_SECRET: "s".repeat(40) };

describe("configuration", () => {
  it("starts with nothing set: port 3000, signup on, development sign-in", () => {
    const env = loadEnv({ ...base });
    expect(env.PORT).toBe(3000);
    expect(env.platform.orgSignupEnabled).toBe(true);
    expect(env.platform.oauth).toEqual({});
  });

  /** What the operator reads when the start is refused (server/index.ts prints the message alone). */
  function refusal(settings: Record<string, string | undefined>): string {
    try {
      loadEnv({ ...base, ...settings });
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigurationError);
      return (error as Error).message;
    }
    throw new Error(`accepted: ${JSON.stringify(settings)}`);
  }

  it("refuses bad values on one line, naming each variable once with the value it was given (audit M L1)", () => {
    expect(refusal({ PORT: "abc" })).toBe('Invalid configuration: PORT: must be a whole number from 1 to 65535 (got "abc")');
    expect(refusal({ PORT: "80.5" })).toBe('Invalid configuration: PORT: must be a whole number from 1 to 65535 (got "80.5")');
    expect(refusal({ PORT: "70000" })).toBe('Invalid configuration: PORT: must be a whole number from 1 to 65535 (got "70000")');
    expect(refusal({ STRIPE_API_PORT: "0" })).toBe('Invalid configuration: STRIPE_API_PORT: must be a whole number from 1 to 65535 (got "0")');
    expect(refusal({ SHUTDOWN_TIMEOUT_MS: "soon" })).toBe('Invalid configuration: SHUTDOWN_TIMEOUT_MS: must be a whole number from 0 to 600000 (got "soon")');
    expect(refusal({ MAX_REQUEST_CHARS: "-1" })).toBe('Invalid configuration: MAX_REQUEST_CHARS: must be a whole number of at least 1 (got "-1")');
    expect(refusal({ NODE_ENV: "prod" })).toBe('Invalid configuration: NODE_ENV: must be development, production or test (got "prod")');
    expect(refusal({ STRIPE_API_PROTOCOL: "ftp" })).toBe('Invalid configuration: STRIPE_API_PROTOCOL: must be http or https (got "ftp")');
    expect(refusal({ PLATFORM_URL: "not a url" })).toBe('Invalid configuration: PLATFORM_URL: must be an absolute URL (got "not a url")');
    expect(refusal({ GITHUB_TOKEN_URL: "/token" })).toBe('Invalid configuration: GITHUB_TOKEN_URL: must be an absolute URL (got "/token")');
    // The secret itself is never repeated, only what is wrong with it.
    expect(refusal({ SESSION_SECRET: "short" })).toBe("Invalid configuration: SESSION_SECRET: must be at least 32 characters (it has 5)");
    expect(refusal({ UPSTREAM_KEYS_SECRET: "short" })).toBe("Invalid configuration: UPSTREAM_KEYS_SECRET: must be at least 32 characters (it has 5)");
    expect(refusal({ UPSTREAM_KEYS_SECRET_PREVIOUS: "short" })).toBe(
      "Invalid configuration: UPSTREAM_KEYS_SECRET_PREVIOUS: must be at least 32 characters (it has 5)",
    );
    // A rotation half made: the keys would stay sealed under the secret being replaced.
    expect(refusal({ UPSTREAM_KEYS_SECRET: "u".repeat(40), UPSTREAM_KEYS_SECRET_PREVIOUS: "u".repeat(40) })).toBe(
      "Invalid configuration: UPSTREAM_KEYS_SECRET_PREVIOUS: the same as UPSTREAM_KEYS_SECRET (give the new secret as UPSTREAM_KEYS_SECRET, the old one here)",
    );
  });

  it("refuses a URL setting that is not http:// or https://, or holds a user name and password, naming it", () => {
    // A URL of another scheme (`host:port` parses as the scheme `host:`) or with a user name and password can't work.
    expect(refusal({ APP_ORIGIN: "localhost:3000" })).toBe(
      'Invalid configuration: APP_ORIGIN: must be an http:// or https:// URL (got "localhost:3000"); write http://localhost:3000 or https://localhost:3000',
    );
    expect(refusal({ PLATFORM_URL: "localhost:5563" })).toBe(
      'Invalid configuration: PLATFORM_URL: must be an http:// or https:// URL (got "localhost:5563"); write http://localhost:5563 or https://localhost:5563',
    );
    expect(refusal({ GOOGLE_TOKEN_URL: "ftp://oauth.example.test/token" })).toBe(
      'Invalid configuration: GOOGLE_TOKEN_URL: must be an http:// or https:// URL (got "ftp://oauth.example.test/token")',
    );
    expect(refusal({ APP_ORIGIN: "file:///srv/console" })).toBe(
      'Invalid configuration: APP_ORIGIN: must be an http:// or https:// URL (got "file:///srv/console")',
    );
    // The password is never repeated.
    expect(refusal({ PLATFORM_URL: "http://admin:hunter2@platform.internal:4000" })).toBe(
      'Invalid configuration: PLATFORM_URL: must not contain a user name or password (got "http://…@platform.internal:4000/")',
    );
    expect(refusal({ APP_ORIGIN: "https://ops@console.example.test" })).toBe(
      'Invalid configuration: APP_ORIGIN: must not contain a user name or password (got "https://…@console.example.test/")',
    );
    expect(refusal({ STRIPE_API_HOST: "http://127.0.0.1:12111" })).toBe(
      'Invalid configuration: STRIPE_API_HOST: must be a host name only, such as api.stripe.com (the port and scheme are STRIPE_API_PORT and STRIPE_API_PROTOCOL) (got "http://127.0.0.1:12111")',
    );
    expect(refusal({ APP_ORIGIN: "localhost:3000", PLATFORM_URL: "x:1" })).toMatch(/^Invalid configuration: PLATFORM_URL: .*; APP_ORIGIN: /);
  });

  it("is said by the server in one line of stderr, before its logs are made one-line, and the start fails", () => {
    const run = spawnSync(process.execPath, ["--import", "tsx", "server/index.ts"], {
      env: { PATH: process.env.PATH, NODE_ENV: "production", PORT: "abc", GOOGLE_CLIENT_ID: "id-only", DATABASE_PATH: base.DATABASE_PATH },
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe(
      'Invalid configuration: PORT: must be a whole number from 1 to 65535 (got "abc"); GOOGLE_CLIENT_SECRET is missing: GOOGLE_CLIENT_ID is set, and each OAuth provider needs both\n',
    );
  });

  it("names the missing half of an OAuth client, with the same prefix", () => {
    expect(refusal({ GOOGLE_CLIENT_ID: "id-only" })).toBe(
      "Invalid configuration: GOOGLE_CLIENT_SECRET is missing: GOOGLE_CLIENT_ID is set, and each OAuth provider needs both",
    );
    expect(refusal({ GITHUB_CLIENT_SECRET: "secret-only", GITHUB_CLIENT_ID: "" })).toBe(
      "Invalid configuration: GITHUB_CLIENT_ID is missing: GITHUB_CLIENT_SECRET is set, and each OAuth provider needs both",
    );
  });

  it("says every problem at once, still on one line", () => {
    expect(refusal({ PORT: "abc", LOG_REQUESTS: "maybe", GOOGLE_CLIENT_SECRET: "x" })).toBe(
      'Invalid configuration: PORT: must be a whole number from 1 to 65535 (got "abc"); LOG_REQUESTS: must be true, false, 1 or 0 (got "maybe"); GOOGLE_CLIENT_ID is missing: GOOGLE_CLIENT_SECRET is set, and each OAuth provider needs both',
    );
  });

  it("reads every on/off setting the same way: true, false, 1, 0 in any case; empty is the default", () => {
    const flags = (value: string | undefined) => {
      const env = loadEnv({ ...base, ORG_SIGNUP_ENABLED: value, LOG_REQUESTS: value, ALLOW_DEV_SIGNIN: value });
      return [env.ORG_SIGNUP_ENABLED, env.LOG_REQUESTS, env.ALLOW_DEV_SIGNIN];
    };
    for (const value of ["true", "TRUE", "True", "1", " 1 "]) expect(flags(value), value).toEqual([true, true, true]);
    for (const value of ["false", "FALSE", "0"]) expect(flags(value), value).toEqual([false, false, false]);
    // Unset or empty: signup and the access log on, development sign-in beyond loopback off.
    for (const value of [undefined, ""]) expect(flags(value), String(value)).toEqual([true, true, false]);
    expect(loadEnv({ ...base, ORG_SIGNUP_ENABLED: "0" }).platform.orgSignupEnabled).toBe(false);
    for (const name of ["ORG_SIGNUP_ENABLED", "LOG_REQUESTS", "ALLOW_DEV_SIGNIN"]) {
      expect(refusal({ [name]: "yes" })).toBe(`Invalid configuration: ${name}: must be true, false, 1 or 0 (got "yes")`);
    }
  });

  it("takes an empty numeric setting for an unset one", () => {
    const env = loadEnv({ ...base, PORT: "", SHUTDOWN_TIMEOUT_MS: " ", STRIPE_API_PORT: "", MAX_REQUEST_CHARS: "", RESERVATION_TTL_MS: "" });
    expect([env.PORT, env.SHUTDOWN_TIMEOUT_MS, env.STRIPE_API_PORT, env.MAX_REQUEST_CHARS, env.RESERVATION_TTL_MS]).toEqual([
      3000,
      25_000,
      undefined,
      undefined,
      undefined,
    ]);
    const stripe = { STRIPE_SECRET_KEY: "sk_test_x", STRIPE_API_HOST: "127.0.0.1" };
    expect(loadEnv({ ...base, ...stripe, STRIPE_API_PORT: "" }).platform.stripe?.port).toBeUndefined();
    expect(loadEnv({ ...base, ...stripe, STRIPE_API_PORT: "12111" }).platform.stripe?.port).toBe(12111);
  });

  it("refuses a PLATFORM_URL with a query or fragment, or that is this console's own address", () => {
    const base = { DATABASE_PATH: ":memory:", SESSION_SECRET: "s".repeat(32) };
    expect(() => loadEnv({ ...base, PLATFORM_URL: "https://platform.example/?region=eu" })).toThrow(
      new ConfigurationError('Invalid configuration: PLATFORM_URL: must not have a query or fragment (got "https://platform.example/?region=eu")'),
    );
    for (const [PLATFORM_URL, more] of [
      ["http://localhost:3000", {}],
      ["http://127.0.0.1:8080/", { PORT: "8080" }],
      ["https://console.example", { APP_ORIGIN: "https://console.example" }],
    ] as const) {
      expect(() => loadEnv({ ...base, ...more, PLATFORM_URL }), PLATFORM_URL).toThrow(
        new ConfigurationError(
          `Invalid configuration: PLATFORM_URL: is this console's own address (got ${JSON.stringify(PLATFORM_URL)}): give the external platform's`,
        ),
      );
    }
    expect(loadEnv({ ...base, PLATFORM_URL: "http://127.0.0.1:3001" }).PLATFORM_URL).toBe("http://127.0.0.1:3001");
  });

  it("generates and keeps a session secret when none is given", () => {
    const dir = path.join(os.tmpdir(), `env-secret-${process.pid}-${Date.now()}`);
    const first = loadEnv({ DATABASE_PATH: path.join(dir, "db.sqlite") }).sessionSecret;
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(loadEnv({ DATABASE_PATH: path.join(dir, "db.sqlite") }).sessionSecret).toBe(first);
  });

  it("makes the kept session secret again when its file is empty, and refuses a short one, naming the file", () => {
    const dir = path.join(os.tmpdir(), `env-secret-short-${process.pid}-${Date.now()}`);
    fs.mkdirSync(dir);
    const file = path.join(dir, "session-secret");
    fs.writeFileSync(file, "\n");
    const made = loadEnv({ DATABASE_PATH: path.join(dir, "db.sqlite") }).sessionSecret;
    expect(made).toMatch(/^[0-9a-f]{64}$/);
    expect(fs.readFileSync(file, "utf8")).toBe(made);
    fs.writeFileSync(file, "short");
    expect(() => loadEnv({ DATABASE_PATH: path.join(dir, "db.sqlite") })).toThrow(
      new ConfigurationError(
        `The session secret in ${file} is shorter than 32 characters: delete the file to have a new one made (everyone signs in again), or set SESSION_SECRET.`,
      ),
    );
    fs.rmSync(dir, { recursive: true });
  });

  it("says where it could not write the session secret, in one line", () => {
    const file = path.join(os.tmpdir(), `env-secret-file-${process.pid}-${Date.now()}`);
    fs.writeFileSync(file, "");
    // The folder of DATABASE_PATH is a file: neither the folder nor the secret can be made.
    expect(() => loadEnv({ DATABASE_PATH: path.join(file, "console.db") })).toThrow(
      new RegExp(
        `^Cannot write the session secret to ${file}/session-secret \\(the folder of DATABASE_PATH\\): .*Make that folder writable, or set SESSION_SECRET\\.$`,
      ),
    );
    fs.rmSync(file);
  });

  it("requires SESSION_SECRET with DATABASE_URL, where several processes must share it", () => {
    const url = "postgres://console@127.0.0.1:5432/console";
    expect(() => loadEnv({ DATABASE_URL: url })).toThrow(
      new ConfigurationError(
        "Invalid configuration: SESSION_SECRET: required when DATABASE_URL is set (every process must sign sessions with the same secret, at least 32 characters)",
      ),
    );
    expect(loadEnv({ DATABASE_URL: url, SESSION_SECRET: "s".repeat(40) }).sessionSecret).toBe("s".repeat(40));
  });

  it("refuses a DATABASE_URL that is not PostgreSQL's, instead of falling back to SQLite", () => {
    for (const value of ["notaurl", "mysql://u:p@localhost/db", "pg://u:p@localhost/db", "postgres//nohost"]) {
      expect(() => loadEnv({ ...base, DATABASE_URL: value }), value).toThrow(
        /^Invalid configuration: DATABASE_URL: must be a postgres:\/\/ or postgresql:\/\/ URL$/,
      );
    }
    for (const value of ["postgres://u:p@db:5432/console", "postgresql://db/console"]) {
      expect(loadEnv({ ...base, DATABASE_URL: value }).DATABASE_URL, value).toBe(value);
    }
    expect(loadEnv({ ...base, DATABASE_URL: "" }).DATABASE_URL).toBeUndefined();
  });

  it("says a PostgreSQL URL does not parse, rather than that it is not PostgreSQL's (a password with / or #)", () => {
    for (const value of ["postgres://console:ab/cd+ef=@db:5432/console", "postgres://console:1#b@db/console"]) {
      expect(() => loadEnv({ ...base, DATABASE_URL: value }), value).toThrow(
        'DATABASE_URL: is not a valid URL: percent-encode "/", "#", "?", "@" and ":" in the user name and password',
      );
    }
    expect(loadEnv({ ...base, DATABASE_URL: "postgres://console:ab%2Fcd%2Bef%3D@db:5432/console" }).DATABASE_URL).toBeDefined();
  });

  it("refuses Stripe keys in the wrong place, by their prefix", () => {
    expect(() => loadEnv({ ...base, STRIPE_SECRET_KEY: "pk_live_x" })).toThrow(/STRIPE_SECRET_KEY: must be a Stripe secret or restricted key \(sk_… or rk_…\)/);
    expect(() => loadEnv({ ...base, STRIPE_PUBLISHABLE_KEY: "sk_live_x" })).toThrow(/STRIPE_PUBLISHABLE_KEY: must be a Stripe publishable key \(pk_…\)/);
    expect(() => loadEnv({ ...base, STRIPE_WEBHOOK_SECRET: "foo" })).toThrow(/STRIPE_WEBHOOK_SECRET: must be a Stripe webhook signing secret \(whsec_…\)/);
    for (const key of ["sk_test_x", "rk_live_x"]) expect(loadEnv({ ...base, STRIPE_SECRET_KEY: key }).platform.stripe?.secretKey).toBe(key);
    // What compose passes for an unset key.
    expect(loadEnv({ ...base, STRIPE_SECRET_KEY: "", STRIPE_PUBLISHABLE_KEY: "", STRIPE_WEBHOOK_SECRET: "" }).platform.stripe).toBeUndefined();
    // The browser tests' settings (playwright.config.ts) pass.
    expect(() =>
      loadEnv({ ...base, STRIPE_SECRET_KEY: "sk_test_e2e_fake", STRIPE_PUBLISHABLE_KEY: "pk_test_e2e_fake", STRIPE_WEBHOOK_SECRET: "whsec_e2e_fake" }),
    ).not.toThrow();
  });

  it("drains for 25 s on shutdown unless SHUTDOWN_TIMEOUT_MS says otherwise", () => {
    expect(loadEnv({ ...base }).SHUTDOWN_TIMEOUT_MS).toBe(25_000);
    expect(loadEnv({ ...base, SHUTDOWN_TIMEOUT_MS: "5000" }).SHUTDOWN_TIMEOUT_MS).toBe(5_000);
    // An empty line in .env, or compose's ${SHUTDOWN_TIMEOUT_MS:-}, is no setting: not 0 ms of drain.
    expect(loadEnv({ ...base, SHUTDOWN_TIMEOUT_MS: "" }).SHUTDOWN_TIMEOUT_MS).toBe(25_000);
    expect(loadEnv({ ...base, PORT: "" }).PORT).toBe(3000);
    expect(() => loadEnv({ ...base, SHUTDOWN_TIMEOUT_MS: "soon" })).toThrow(/SHUTDOWN_TIMEOUT_MS/);
  });

  it("refuses a reservation lifetime shorter than two of the minute-long extensions of a running request", () => {
    expect(() => loadEnv({ ...base, RESERVATION_TTL_MS: "60000" })).toThrow(
      'Invalid configuration: RESERVATION_TTL_MS: must be a whole number of at least 120000 (got "60000"): two minutes, since running requests extend their holds every minute',
    );
    expect(loadEnv({ ...base, RESERVATION_TTL_MS: "120000" }).platform.reservationTtlMs).toBe(120_000);
  });

  it("normalises SYSTEM_ADMINS and APP_ORIGIN", () => {
    const env = loadEnv({ ...base, SYSTEM_ADMINS: " Root@Example.test, ,ops@example.test", APP_ORIGIN: "https://console.example/some/path" });
    expect(env.platform.systemAdmins).toEqual(["root@example.test", "ops@example.test"]);
    expect(env.platform.appOrigin).toBe("https://console.example");
  });

  it("trusts a loopback proxy by default, and the proxies TRUST_PROXY names otherwise", () => {
    expect(loadEnv({ ...base }).TRUST_PROXY).toEqual(["loopback"]);
    expect(loadEnv({ ...base, TRUST_PROXY: "" }).TRUST_PROXY).toEqual(["loopback"]);
    expect(loadEnv({ ...base, TRUST_PROXY: "1" }).TRUST_PROXY).toBe(1);
    expect(loadEnv({ ...base, TRUST_PROXY: "Loopback, 10.0.0.0/8, 192.0.2.7, fd00::/8" }).TRUST_PROXY).toEqual([
      "loopback",
      "10.0.0.0/8",
      "192.0.2.7",
      "fd00::/8",
    ]);
    // Trusting everyone would let any client write its own address.
    for (const value of ["true", "*", "10.0.0.0/33", "nginx", "1.5", "loopback,,", "0.0.0.0/0", "::/0", "loopback, 10.0.0.0/00"]) {
      expect(() => loadEnv({ ...base, TRUST_PROXY: value }), value).toThrow(/TRUST_PROXY/);
    }
    // A /0 block is everyone too: refused in the setting's one line, not by proxy-addr's stack at start.
    for (const value of ["0.0.0.0/0", "::/0"]) {
      expect(refusal({ TRUST_PROXY: value })).toBe(
        `Invalid configuration: TRUST_PROXY: must be a number of proxy hops (1) or a comma-separated list of loopback, linklocal, uniquelocal, addresses and CIDR blocks (got "${value}")`,
      );
    }
  });
});

const github = { GITHUB_CLIENT_ID: "id", GITHUB_CLIENT_SECRET: "secret" };

describe("start-up messages", () => {
  it("warns in production without APP_ORIGIN, which answers only localhost", () => {
    expect(startupWarnings(loadEnv({ ...base, NODE_ENV: "production", PORT: "3668" }))).toEqual([
      expect.stringMatching(/^APP_ORIGIN is not set: only requests for http:\/\/localhost:3668 are answered \(any other host name gets 421\)/),
    ]);
    expect(startupWarnings(loadEnv({ ...base, NODE_ENV: "production", APP_ORIGIN: "https://console.example.test", ...github }))).toEqual([]);
    expect(startupWarnings(loadEnv({ ...base }))).toEqual([]);
  });

  it("warns that nobody can sign in at a public APP_ORIGIN when development sign-in is on and not allowed", () => {
    const publicOrigin = { ...base, NODE_ENV: "production", APP_ORIGIN: "https://console.example.test", PORT: "3668" };
    expect(startupWarnings(loadEnv(publicOrigin))).toEqual([
      "No sign-in provider is configured, so development sign-in is on, and it answers only browsers on this machine at http://localhost:3668: nobody can sign in at https://console.example.test. Configure Google or GitHub, or set ALLOW_DEV_SIGNIN=true for a trial.",
    ]);
    expect(startupWarnings(loadEnv({ ...publicOrigin, ...github }))).toEqual([]);
    expect(startupWarnings(loadEnv({ ...publicOrigin, ALLOW_DEV_SIGNIN: "true" }))).toEqual([]);
    expect(startupWarnings(loadEnv({ ...publicOrigin, APP_ORIGIN: "http://127.0.0.1:3668" }))).toEqual([]);
  });

  it("warns when the Stripe secret and publishable keys are of different modes", () => {
    const keys = { STRIPE_SECRET_KEY: "sk_live_a", STRIPE_PUBLISHABLE_KEY: "pk_test_b", STRIPE_WEBHOOK_SECRET: "whsec_c" };
    expect(startupWarnings(loadEnv({ ...base, ...keys }))).toEqual([
      "STRIPE_SECRET_KEY is a live key and STRIPE_PUBLISHABLE_KEY a test key: a card the form saves in one mode cannot be charged in the other. Use the two keys of one mode.",
    ]);
    expect(startupWarnings(loadEnv({ ...base, ...keys, STRIPE_SECRET_KEY: "rk_test_a" }))).toEqual([]);
    expect(startupWarnings(loadEnv({ ...base, ...keys, STRIPE_PUBLISHABLE_KEY: "pk_live_b" }))).toEqual([]);
  });

  it("warns at every start when development sign-in listens beyond loopback in production", () => {
    const trial = { ...base, NODE_ENV: "production", APP_ORIGIN: "http://trial.example.test:8080", HOST: "0.0.0.0", ALLOW_DEV_SIGNIN: "true" };
    expect(startupWarnings(loadEnv(trial))).toEqual([
      "Development sign-in listens on 0.0.0.0: anyone who reaches the console can sign in as anyone. For a trial only; configure Google or GitHub for real users.",
    ]);
    expect(startupWarnings(loadEnv({ ...trial, SYSTEM_ADMINS: "ops@example.test" }))).toEqual([
      expect.stringContaining("can sign in as anyone, as a system administrator too (SYSTEM_ADMINS)."),
    ]);
    expect(startupWarnings(loadEnv({ ...trial, HOST: "127.0.0.1" }))).toEqual([]);
    // Refused at start (listenHosts): no warning that it listens before the refusal.
    expect(startupWarnings(loadEnv({ ...trial, ALLOW_DEV_SIGNIN: undefined }))).toEqual([]);
    expect(startupWarnings(loadEnv({ ...trial, GITHUB_CLIENT_ID: "id", GITHUB_CLIENT_SECRET: "secret" }))).toEqual([]);
  });

  it("warns that a path in APP_ORIGIN is ignored, since the console is served from the site root", () => {
    expect(startupWarnings(loadEnv({ ...base, ...github, APP_ORIGIN: "https://console.example.test/console" }))).toEqual([
      "APP_ORIGIN has a path (/console), which is ignored: the console is served from the site root, https://console.example.test/. A proxy in front must not add a path prefix.",
    ]);
    expect(startupWarnings(loadEnv({ ...base, ...github, APP_ORIGIN: "https://console.example.test/" }))).toEqual([]);
  });

  it("warns when only some of the Stripe settings are set", () => {
    const all = { STRIPE_SECRET_KEY: "sk_test_x", STRIPE_PUBLISHABLE_KEY: "pk_test_x", STRIPE_WEBHOOK_SECRET: "whsec_x" };
    expect(startupWarnings(loadEnv({ ...base, ...all }))).toEqual([]);
    expect(startupWarnings(loadEnv({ ...base, ...all, STRIPE_PUBLISHABLE_KEY: "", STRIPE_WEBHOOK_SECRET: "" }))).toEqual([
      "Stripe is partly configured: STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET are not set. Payments need all three.",
    ]);
    expect(startupWarnings(loadEnv({ ...base, STRIPE_PUBLISHABLE_KEY: "pk_test_x" }))).toEqual([
      "Stripe is partly configured: STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are not set. Payments need all three.",
    ]);
    expect(startupWarnings(loadEnv({ ...base, ...all, STRIPE_WEBHOOK_SECRET: undefined }))).toEqual([
      "Stripe is partly configured: STRIPE_WEBHOOK_SECRET is not set. Payments need all three.",
    ]);
  });

  it("names the addresses it listens on and APP_ORIGIN", () => {
    const env = loadEnv({ ...base, PORT: "3668", APP_ORIGIN: "http://console.example.test:3668" });
    expect(startupLine(env, ["0.0.0.0"], false)).toBe(
      `Console listening on 0.0.0.0:3668; APP_ORIGIN http://console.example.test:3668; database SQLite ${base.DATABASE_PATH}`,
    );
    expect(startupLine(loadEnv({ ...base }), ["127.0.0.1", "::1"], true)).toBe(
      `Console listening on 127.0.0.1:3000, [::1]:3000; APP_ORIGIN http://localhost:3000; database SQLite ${base.DATABASE_PATH} (development sign-in: no identity provider is configured)`,
    );
    expect(startupLine(loadEnv({ ...base, PLATFORM_URL: "http://platform.internal:4000" }), ["127.0.0.1"], false)).toBe(
      "Console listening on 127.0.0.1:3000; APP_ORIGIN http://localhost:3000; platform http://platform.internal:4000",
    );
  });

  it("names the database (never its password), the sign-in providers configured and Stripe's mode", () => {
    const configured = loadEnv({
      ...base,
      DATABASE_URL: "postgres://console:hunter2-secret@db.internal:5432/console?sslmode=require",
      GOOGLE_CLIENT_ID: "g-id",
      GOOGLE_CLIENT_SECRET: "g-secret",
      GITHUB_CLIENT_ID: "gh-id",
      GITHUB_CLIENT_SECRET: "gh-secret",
      STRIPE_SECRET_KEY: "sk_live_x",
      STRIPE_PUBLISHABLE_KEY: "pk_live_x",
      STRIPE_WEBHOOK_SECRET: "whsec_x",
    });
    const line = startupLine(configured, ["127.0.0.1"], false);
    expect(line).toBe(
      "Console listening on 127.0.0.1:3000; APP_ORIGIN http://localhost:3000; database PostgreSQL db.internal:5432/console; sign-in google, github; Stripe live",
    );
    expect(line).not.toContain("hunter2");
    expect(
      startupLine(loadEnv({ ...base, GITHUB_CLIENT_ID: "gh-id", GITHUB_CLIENT_SECRET: "gh-secret", STRIPE_SECRET_KEY: "sk_test_x" }), ["127.0.0.1"], false),
    ).toBe(`Console listening on 127.0.0.1:3000; APP_ORIGIN http://localhost:3000; database SQLite ${base.DATABASE_PATH}; sign-in github; Stripe test`);
  });
});

describe("where the server listens", () => {
  it("listens on loopback by default", () => {
    expect(listenHosts(loadEnv({ ...base }), true)).toEqual(["127.0.0.1", "::1"]);
  });

  it("refuses a public address in development sign-in mode unless ALLOW_DEV_SIGNIN=true", () => {
    expect(() => listenHosts(loadEnv({ ...base, HOST: "0.0.0.0" }), true)).toThrow(/ALLOW_DEV_SIGNIN/);
    expect(listenHosts(loadEnv({ ...base, HOST: "0.0.0.0", ALLOW_DEV_SIGNIN: "true" }), true)).toEqual(["0.0.0.0"]);
    expect(listenHosts(loadEnv({ ...base, HOST: "0.0.0.0" }), false)).toEqual(["0.0.0.0"]);
  });
});

describe("the origin rule", () => {
  const url = "http://localhost:3000/team";
  it("allows the console's own origin and requests that name none", () => {
    expect(isAllowedOrigin({ origin: "http://localhost:3000" }, url)).toBe(true);
    expect(isAllowedOrigin({}, url)).toBe(true);
  });
  it("refuses another origin, and cross-site fetch metadata", () => {
    expect(isAllowedOrigin({ origin: "http://evil.example" }, url)).toBe(false);
    expect(isAllowedOrigin({ origin: "null" }, url)).toBe(false);
    expect(isAllowedOrigin({ secFetchSite: "cross-site" }, url)).toBe(false);
    expect(isAllowedOrigin({ origin: "http://localhost:3000" }, url, "https://console.example")).toBe(false);
  });
});
