import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import pg from "pg";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SYSTEM_ORG_ID } from "@contract/system";
import type { Deps } from "../../platform/context";
import { migrate, openDatabase } from "../../platform/db";
import type { DB } from "../../platform/db";
import { debitUsage } from "../../platform/billing/ledger";
import { saveModel } from "../../platform/models/service";
import { openUpstreamKeys, upstreamKey } from "../../platform/models/upstream-keys";
import { createOrganization } from "../../platform/orgs/service";
import { operatorName } from "../../scripts/cli/command";
import { main } from "../../scripts/cli/index";

/**
 * What an operator sees of the commands (messages, exit status) and what they change in the database.
 * On SQLite a file, or with TEST_DATABASE_URL=postgres://… a new database on that server, as the
 * platform suite does (tests/platform/harness.ts).
 */

interface Target {
  /** What the command's environment says. */
  env: Record<string, string>;
  db: DB;
  close: () => Promise<void>;
}

async function pgAdmin(url: string, query: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(query);
  } finally {
    await client.end();
  }
}

/** A database of its own; `migrated: false` leaves it as an operator might point at by mistake: empty. */
async function database({ migrated = true } = {}): Promise<Target> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cli-cmd-"));
    const file = path.join(dir, "console.db");
    const db = openDatabase({ path: file });
    if (migrated) await migrate(db);
    return {
      env: { DATABASE_URL: "", DATABASE_PATH: file },
      db,
      close: async () => {
        await db.destroy();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const name = `t_cli_${process.pid}_${Date.now()}_${Math.random().toString(36).slice(2, 8)}`;
  await pgAdmin(url, `create database ${name}`);
  const scoped = new URL(url);
  scoped.pathname = `/${name}`;
  const db = openDatabase({ url: scoped.toString() });
  if (migrated) await migrate(db);
  return {
    env: { DATABASE_URL: scoped.toString(), DATABASE_PATH: "" },
    db,
    close: async () => {
      await db.destroy();
      await pgAdmin(url, `drop database if exists ${name} with (force)`);
    },
  };
}

let target: Target | undefined;
let out: string[];
let err: string[];

beforeEach(() => {
  out = [];
  err = [];
  vi.spyOn(console, "log").mockImplementation((...a: unknown[]) => void out.push(a.join(" ")));
  vi.spyOn(console, "error").mockImplementation((...a: unknown[]) => void err.push(a.join(" ")));
});

afterEach(async () => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  await target?.close();
  target = undefined;
});

/** Runs a command against `target`, the output of earlier runs forgotten. */
async function run(...argv: string[]): Promise<number> {
  out.length = 0;
  err.length = 0;
  for (const [name, value] of Object.entries(target!.env)) vi.stubEnv(name, value);
  return main(argv);
}

const OPERATOR = operatorName();

function depsOf(db: DB): Deps {
  return { db, now: Date.now, config: { sessionSecret: "", orgSignupEnabled: true, systemAdmins: [], oauth: {}, allowDevSignin: false } };
}

async function user(db: DB, name: string, email: string): Promise<number> {
  const row = await db.insertInto("users").values({ name, email, email_verified: 1, created_at: Date.now() }).returning("id").executeTakeFirstOrThrow();
  return row.id;
}

/** An organization of a new user (its admin), with its billing account. */
async function acme(db: DB): Promise<number> {
  const owner = await user(db, "Owner", `owner-${Math.random().toString(36).slice(2, 8)}@example.test`);
  return (await createOrganization(depsOf(db), owner, "Acme")).id;
}

async function balance(db: DB, orgId: number): Promise<number> {
  const row = await db.selectFrom("billing_accounts").select("balance_micros").where("org_id", "=", orgId).executeTakeFirstOrThrow();
  return Number(row.balance_micros) / 1_000_000;
}

async function ledger(db: DB, orgId: number) {
  const rows = await db.selectFrom("ledger_entries").select(["description", "change_micros"]).where("org_id", "=", orgId).orderBy("id").execute();
  return rows.map((r) => ({ description: r.description, change: Number(r.change_micros) / 1_000_000 }));
}

async function audit(db: DB, action: string) {
  return db
    .selectFrom("audit_log")
    .select(["org_id", "actor_id", "actor_name", "actor_email", "target", "old_value", "new_value"])
    .where("action", "=", action)
    .orderBy("id")
    .execute();
}

describe("the operator commands' help", () => {
  it("is printed on stdout with status 0 when asked for; without a command it is a mistake (status 2)", async () => {
    for (const flag of ["--help", "-h"]) {
      expect(await main([flag])).toBe(0);
      expect(out.join("\n")).toMatch(/^Usage: node build\/cli\.js COMMAND ARGS…/);
      for (const name of ["billing-mode", "grant-credit", "reseal-upstream-keys", "reverse-credit", "system-admin"])
        expect(out.join("\n")).toContain(`  ${name} `);
      expect(err).toEqual([]);
      out.length = 0;
    }
    expect(await main([])).toBe(2);
    expect(err.join("\n")).toMatch(/^Usage:/);
    expect(out).toEqual([]);

    out.length = 0;
    expect(await main(["grant-credit", "--help"])).toBe(0);
    expect(out.join("\n")).toBe(
      'Usage: node build/cli.js grant-credit ORG_ID AMOUNT [--] "reason"\n  grants an organization a credit (at most $10,000, 2 decimals): the ledger row "Credit: reason" and the balance, in one transaction. A reason that starts with "-" goes after --',
    );
    out.length = 0;
    expect(await main(["billing-mode", "-h"])).toBe(0);
    expect(out.join("\n")).toContain("/system/orgs");
    expect(out.join("\n")).not.toContain("until the organization editor exists");
  });
});

describe("an operator command without a database", () => {
  it("refuses in one line and creates nothing (no file, no folder) when DATABASE_PATH's file isn't there", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cli-none-"));
    const file = path.join(dir, "data", "console.db");
    vi.stubEnv("DATABASE_URL", "");
    vi.stubEnv("DATABASE_PATH", file);
    for (const argv of [
      ["system-admin", "op@example.test"],
      ["grant-credit", "2", "10", "why"],
      ["reverse-credit", "2", "10", "why"],
      ["billing-mode", "2", "invoice"],
    ]) {
      err.length = 0;
      expect(await main(argv)).toBe(1);
      expect(err).toEqual([`No database at ${file}: check DATABASE_PATH, or the folder you run from (the server creates it at its first start).`]);
    }
    expect(fs.readdirSync(dir)).toEqual([]);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("names a relative DATABASE_PATH by its absolute path (the folder it was run from is the usual mistake)", async () => {
    vi.stubEnv("DATABASE_URL", "");
    vi.stubEnv("DATABASE_PATH", "no-such-folder/console.db");
    expect(await main(["system-admin", "op@example.test"])).toBe(1);
    expect(err).toEqual([
      `No database at ${path.resolve("no-such-folder/console.db")}: check DATABASE_PATH, or the folder you run from (the server creates it at its first start).`,
    ]);
    expect(fs.existsSync("no-such-folder")).toBe(false);
  });

  it("refuses a database the console never migrated, and leaves it as it was", async () => {
    target = await database({ migrated: false });
    const setting = process.env.TEST_DATABASE_URL ? "DATABASE_URL" : "DATABASE_PATH";
    expect(await run("grant-credit", "1", "10", "why")).toBe(1);
    expect(err[1]).toBe(`This database has no console tables (never migrated): check ${setting} (the server creates them at its first start).`);
    const tables = await target.db.introspection.getTables({ withInternalKyselyTables: true });
    expect(tables).toEqual([]);
  });
});

describe("an operator command on an empty file at DATABASE_PATH", () => {
  it.skipIf(!!process.env.TEST_DATABASE_URL)("refuses it as never migrated and leaves it empty", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cli-empty-"));
    const file = path.join(dir, "console.db");
    fs.writeFileSync(file, "");
    vi.stubEnv("DATABASE_URL", "");
    vi.stubEnv("DATABASE_PATH", file);
    try {
      expect(await main(["grant-credit", "1", "10", "why"])).toBe(1);
      expect(err.at(-1)).toBe("This database has no console tables (never migrated): check DATABASE_PATH (the server creates them at its first start).");
      expect(fs.statSync(file).size).toBe(0);
      expect(fs.readdirSync(dir)).toEqual(["console.db"]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("an operator command on a SQLite file another connection keeps locked", () => {
  it.skipIf(!!process.env.TEST_DATABASE_URL)(
    "refuses in one line, as the server does, once the busy timeout has passed, and changes nothing",
    async () => {
      target = await database();
      const { db } = target;
      const orgId = await acme(db);
      const file = target.env.DATABASE_PATH;
      const holder = new SQLite(file);
      holder.exec("begin immediate");
      try {
        expect(await run("grant-credit", String(orgId), "5", "why")).toBe(1);
      } finally {
        holder.exec("rollback");
        holder.close();
      }
      expect(err.slice(1)).toEqual([`Cannot open DATABASE_PATH (${file}): database is locked`]);
      expect(out).toEqual([]);
      expect(await ledger(db, orgId)).toEqual([]);
    },
    20_000,
  );
});

describe("grant-credit and reverse-credit", () => {
  it("grant within the limits, and reverse into the organization's ledger, with an audit entry naming the operator", async () => {
    target = await database();
    const { db } = target;
    const orgId = await acme(db);

    expect(await run("grant-credit", String(orgId), "10", "opening", "balance")).toBe(0);
    expect(out).toEqual([`Credited $10.00 to organization ${orgId} (Acme): Credit: opening balance`]);
    expect(await run("reverse-credit", String(orgId), "4.5", "granted", "twice")).toBe(0);
    expect(out).toEqual([`Took back $4.50 from organization ${orgId} (Acme): Credit reversed: granted twice. Balance now $5.50.`]);

    expect(await ledger(db, orgId)).toEqual([
      { description: "Credit: opening balance", change: 10 },
      { description: "Credit reversed: granted twice", change: -4.5 },
    ]);
    expect(await balance(db, orgId)).toBe(5.5);
    const actor = { actor_id: null, actor_name: OPERATOR, actor_email: null };
    expect(await audit(db, "credit.granted")).toEqual([
      { org_id: orgId, ...actor, target: null, old_value: null, new_value: JSON.stringify({ amount: 10, reason: "opening balance" }) },
    ]);
    expect(await audit(db, "credit.reversed")).toEqual([
      { org_id: orgId, ...actor, target: null, old_value: null, new_value: JSON.stringify({ amount: -4.5, reason: "granted twice" }) },
    ]);
    expect(OPERATOR).toMatch(/^Command line \(.+\)$/);
  });

  it("hold both to a credit's limits, and reverse only granted credit not yet reversed", async () => {
    target = await database();
    const { db } = target;
    const orgId = await acme(db);
    const id = String(orgId);

    expect(await run("grant-credit", id, "10000.01", "too much")).toBe(1);
    expect(err.at(-1)).toBe("amount: Amount must be at most $10,000");
    expect(await run("grant-credit", id, "1.234", "cents")).toBe(1);
    expect(err.at(-1)).toMatch(/^amount: /);
    expect(await run("grant-credit", id, "5", "x".repeat(201))).toBe(1);
    expect(err.at(-1)).toBe("reason: Reason must be at most 200 characters");
    expect(await run("grant-credit", id, "-5", "back")).toBe(2);
    expect(err).toEqual([
      'A credit is more than $0; to take one back: reverse-credit ORG_ID AMOUNT "reason"',
      'Usage: node build/cli.js grant-credit ORG_ID AMOUNT [--] "reason"',
    ]);
    expect(await run("reverse-credit", id, "10000.01", "too much")).toBe(1);
    expect(err.at(-1)).toBe("Not reversed: amount: Amount must be at most $10,000");
    expect(await run("reverse-credit", id, "1", "")).toBe(1);
    expect(err.at(-1)).toBe("Not reversed: reason: Enter a reason");
    expect(await run("reverse-credit", "99", "1", "why")).toBe(1);
    expect(err.at(-1)).toBe("No organization with id 99");

    expect(await run("reverse-credit", id, "1", "nothing granted")).toBe(1);
    expect(err.at(-1)).toBe("Not reversed: No granted credit is left to reverse");
    expect(await run("grant-credit", id, "3", "trial")).toBe(0);
    expect(await run("reverse-credit", id, "2", "part")).toBe(0);
    expect(await run("reverse-credit", id, "1.01", "more than is left")).toBe(1);
    expect(err.at(-1)).toBe("Not reversed: Only $1.00 of granted credit is left to reverse");
    expect(await balance(db, orgId)).toBe(1);
    expect((await ledger(db, orgId)).length).toBe(2);
    expect(await audit(db, "credit.reversed")).toHaveLength(1);
  });

  it("take an argument after the amount that starts with - as a bad argument, before opening the database; after -- it is the reason", async () => {
    target = await database();
    const { db } = target;
    const orgId = await acme(db);
    const id = String(orgId);
    for (const name of ["grant-credit", "reverse-credit"]) {
      for (const rest of [["--dry-run"], ["-n"], ["--reason", "mistake"], ["mistake", "--dry-run"], ["-"]]) {
        expect(await run(name, id, "5", ...rest), `${name} ${rest.join(" ")}`).toBe(2);
        // The usage alone: no "Database: …" line, the database was not opened.
        expect(err).toEqual([`Usage: node build/cli.js ${name} ORG_ID AMOUNT [--] "reason"`]);
        expect(out).toEqual([]);
      }
    }
    // An option where the amount goes is a bad argument, not a negative credit.
    expect(await run("grant-credit", id, "--dry-run", "5", "why")).toBe(2);
    expect(err).toEqual(['Usage: node build/cli.js grant-credit ORG_ID AMOUNT [--] "reason"']);
    expect(await balance(db, orgId)).toBe(0);
    expect(await ledger(db, orgId)).toEqual([]);
    expect(await audit(db, "credit.granted")).toEqual([]);

    expect(await run("grant-credit", id, "5", "--", "-weird", "reason")).toBe(0);
    expect(out).toEqual([`Credited $5.00 to organization ${orgId} (Acme): Credit: -weird reason`]);
    expect(await run("reverse-credit", id, "1", "typo", "--", "-h")).toBe(0);
    expect(out).toEqual([`Took back $1.00 from organization ${orgId} (Acme): Credit reversed: typo -h. Balance now $4.00.`]);
    expect(await ledger(db, orgId)).toEqual([
      { description: "Credit: -weird reason", change: 5 },
      { description: "Credit reversed: typo -h", change: -1 },
    ]);
  });

  it("take a missing reason as a bad argument, refused before the database is opened", async () => {
    target = await database();
    const { db } = target;
    const orgId = await acme(db);
    for (const name of ["grant-credit", "reverse-credit"]) {
      for (const rest of [[], ["--"]]) {
        expect(await run(name, String(orgId), "5", ...rest), `${name} ${rest.join(" ")}`).toBe(2);
        expect(err).toEqual([`Usage: node build/cli.js ${name} ORG_ID AMOUNT [--] "reason"`]);
      }
    }
    // Not even looked for: a command without its reason says so, whatever DATABASE_PATH names.
    vi.stubEnv("DATABASE_URL", "");
    vi.stubEnv("DATABASE_PATH", path.join(os.tmpdir(), "cli-no-such-folder", "console.db"));
    err.length = 0;
    expect(await main(["grant-credit", String(orgId), "5"])).toBe(2);
    expect(err).toEqual(['Usage: node build/cli.js grant-credit ORG_ID AMOUNT [--] "reason"']);
    expect(await ledger(db, orgId)).toEqual([]);
  });

  it("take an organization id as digits only: 0x2, 2.0 and 1e0 are bad arguments, not organization 2 or 1", async () => {
    target = await database();
    const { db } = target;
    const orgId = await acme(db);
    for (const typed of [`0x${orgId.toString(16)}`, `${orgId}.0`, `${orgId}e0`, ` ${orgId}`, "1e0"]) {
      expect(await run("grant-credit", typed, "5", "x"), typed).toBe(2);
      expect(await run("reverse-credit", typed, "5", "x"), typed).toBe(2);
      expect(await run("billing-mode", typed, "invoice"), typed).toBe(2);
    }
    // An argument past the mode is a mistake too, not ignored.
    expect(await run("billing-mode", String(orgId), "invoice", "extra")).toBe(2);
    expect(await balance(db, orgId)).toBe(0);
    expect(await audit(db, "organization.payment_mode_changed")).toHaveLength(0);
  });

  it("never take back credit already spent, except in invoice mode, where the balance below zero is what is owed", async () => {
    target = await database();
    const { db } = target;
    const orgId = await acme(db);
    const id = String(orgId);
    expect(await run("grant-credit", id, "10", "trial")).toBe(0);
    await debitUsage(depsOf(db), { orgId, model: "m", rateCardId: null, costMicros: 7_250_000, description: "Usage" });

    expect(await run("reverse-credit", id, "5", "mistake")).toBe(1);
    expect(err.at(-1)).toBe("Not reversed: The balance is $2.75: a reversal can't take it below $0 (credit already spent stays spent)");
    expect(await balance(db, orgId)).toBe(2.75);
    expect(await run("reverse-credit", id, "2.75", "what is left")).toBe(0);
    expect(await balance(db, orgId)).toBe(0);

    expect(await run("billing-mode", id, "invoice")).toBe(0);
    expect(out).toEqual([`Organization ${orgId} (Acme) now uses invoice billing.`]);
    // Run again, it says nothing changed, as its audit log does.
    expect(await run("billing-mode", id, "invoice")).toBe(0);
    expect(out).toEqual([`Organization ${orgId} (Acme) already uses invoice billing.`]);
    expect(await run("reverse-credit", id, "7.25", "invoiced instead")).toBe(0);
    expect(out).toEqual([`Took back $7.25 from organization ${orgId} (Acme): Credit reversed: invoiced instead. Balance now -$7.25.`]);
    expect(await balance(db, orgId)).toBe(-7.25);
    expect(await audit(db, "organization.payment_mode_changed")).toMatchObject([{ actor_name: OPERATOR }]);
  });
});

describe("system-admin", () => {
  it("grants once, revokes with an audit entry naming the operator, and never removes the last admin", async () => {
    target = await database();
    const { db } = target;
    const ops = await user(db, "Ops", "Ops@Example.test");
    const lee = await user(db, "Lee", "lee@example.test");
    const role = async (userId: number) =>
      (await db.selectFrom("memberships").select("role").where("org_id", "=", SYSTEM_ORG_ID).where("user_id", "=", userId).executeTakeFirst())?.role;

    expect(await run("system-admin", "OPS@example.test")).toBe(0);
    expect(out).toEqual(["Ops is now admin of the system organization."]);
    expect(await run("system-admin", "ops@example.test")).toBe(0);
    expect(out).toEqual(["Ops was already admin of the system organization."]);
    expect(await role(ops)).toBe("admin");
    expect(await audit(db, "member.joined")).toEqual([
      {
        org_id: SYSTEM_ORG_ID,
        actor_id: null,
        actor_name: OPERATOR,
        actor_email: null,
        target: "Ops@Example.test",
        old_value: null,
        new_value: JSON.stringify({ role: "admin", via: "command line" }),
      },
    ]);

    expect(await run("system-admin", "--revoke", "ops@example.test")).toBe(1);
    expect(err.at(-1)).toBe(
      "Not revoked: Ops would leave the system organization without an admin (an organization must keep at least one admin). Make someone else admin first: system-admin EMAIL.",
    );
    expect(await role(ops)).toBe("admin");
    expect(await audit(db, "member.removed")).toEqual([]);

    // A member promoted: the team page's "role changed".
    await db.insertInto("memberships").values({ org_id: SYSTEM_ORG_ID, user_id: lee, role: "member", created_at: Date.now() }).execute();
    expect(await run("system-admin", "lee@example.test")).toBe(0);
    expect(await audit(db, "member.role_changed")).toMatchObject([
      {
        actor_name: OPERATOR,
        target: "lee@example.test",
        old_value: JSON.stringify({ role: "member" }),
        new_value: JSON.stringify({ role: "admin", via: "command line" }),
      },
    ]);

    vi.stubEnv("SYSTEM_ADMINS", "someone@example.test, OPS@example.test");
    expect(await run("system-admin", "--revoke", "ops@example.test")).toBe(0);
    expect(out).toEqual(["Ops is no longer in the system organization (was admin)."]);
    expect(err.at(-1)).toBe("ops@example.test is in SYSTEM_ADMINS: take it out of the server's SYSTEM_ADMINS too, or its next sign-in makes it admin again.");
    expect(await role(ops)).toBeUndefined();
    expect(await audit(db, "member.removed")).toEqual([
      {
        org_id: SYSTEM_ORG_ID,
        actor_id: null,
        actor_name: OPERATOR,
        actor_email: null,
        target: "Ops@Example.test",
        old_value: JSON.stringify({ role: "admin" }),
        new_value: null,
      },
    ]);
    expect(await run("system-admin", "--revoke", "ops@example.test")).toBe(0);
    expect(out).toEqual(["Ops was not in the system organization."]);
    expect(await audit(db, "member.removed")).toHaveLength(1);

    expect(await run("system-admin", "--revoke", "nobody@example.test")).toBe(1);
    expect(err.at(-1)).toBe("No user has the email nobody@example.test.");
    expect(await run("system-admin", "--revoke")).toBe(2);
    expect(err.at(-1)).toBe("Usage: node build/cli.js system-admin [--revoke] EMAIL");
  });

  it("grants only users whose provider verified the email: an unverified address equal to the operator's gets nothing", async () => {
    target = await database();
    const { db } = target;
    const role = async (userId: number) =>
      (await db.selectFrom("memberships").select("role").where("org_id", "=", SYSTEM_ORG_ID).where("user_id", "=", userId).executeTakeFirst())?.role;
    // A GitHub account opened with the operator's address as its unverified primary email, signed in first.
    const impostor = (
      await db
        .insertInto("users")
        .values({ name: "Olivia", email: "ops@corp.test", email_verified: 0, created_at: 1 })
        .returning("id")
        .executeTakeFirstOrThrow()
    ).id;
    expect(await run("system-admin", "ops@corp.test")).toBe(1);
    expect(err.at(-1)).toBe(`Not granted to Olivia (user ${impostor}): their provider has not verified ops@corp.test.`);
    expect(await role(impostor)).toBeUndefined();

    const operator = await user(db, "Olivia", "ops@corp.test");
    expect(await run("system-admin", "ops@corp.test")).toBe(0);
    expect(out).toEqual(["Olivia is now admin of the system organization."]);
    expect(await role(operator)).toBe("admin");
    expect(await role(impostor)).toBeUndefined();
  });
});

describe("reseal-upstream-keys", () => {
  const KEY = "sk-provider-KEY-never-printed-42";
  const OLD = "the-leaked-secret-of-the-upstream-keys-000000";
  const NEW = "the-secret-that-replaces-it-1111111111111111";

  /** Models as the model editor stores them in a process given `secrets`. */
  async function models(db: DB, secrets: { secret?: string; previous?: string }, ...names: string[]) {
    await openUpstreamKeys(db, secrets);
    for (const name of names) {
      await saveModel(depsOf(db), {
        name,
        displayName: name,
        provider: "vllm",
        contextSize: 8192,
        baseUrl: "http://gpu:8000/v1",
        upstreamModel: "m",
        apiKey: KEY,
      });
    }
  }

  const stored = async (db: DB) =>
    Object.fromEntries((await db.selectFrom("models").select(["name", "api_key"]).where("api_key", "is not", null).execute()).map((m) => [m.name, m.api_key]));

  /** The keys as a process with only `secret` sends them: it must start, and open every one. */
  async function keysWith(db: DB, secrets: { secret?: string; previous?: string }) {
    await openUpstreamKeys(db, secrets);
    return Object.values(await stored(db)).map((k) => upstreamKey(db, k));
  }

  function secrets(secret: string, previous: string) {
    vi.stubEnv("UPSTREAM_KEYS_SECRET", secret);
    vi.stubEnv("UPSTREAM_KEYS_SECRET_PREVIOUS", previous);
  }

  const printed = () => [...out, ...err].join("\n");

  it("re-seals the keys the previous secret sealed under the new one, once, audited, and prints no secret", async () => {
    target = await database();
    const { db } = target;
    await models(db, { secret: OLD }, "llama");
    await models(db, { secret: NEW, previous: OLD }, "qwen");

    secrets(NEW, OLD);
    expect(await run("reseal-upstream-keys")).toBe(0);
    expect(out).toEqual(["Sealed 1 upstream API key under UPSTREAM_KEYS_SECRET (llama); 1 already was."]);
    expect(err.at(-1)).toBe("UPSTREAM_KEYS_SECRET_PREVIOUS opens none of them now: take it out of every process's settings.");
    expect(await run("reseal-upstream-keys")).toBe(0);
    expect(out).toEqual(["Sealed 0 upstream API keys under UPSTREAM_KEYS_SECRET; 2 already were."]);
    expect(printed()).not.toMatch(new RegExp(`${KEY}|${OLD}|${NEW}`));

    expect(await keysWith(db, { secret: NEW })).toEqual([KEY, KEY]);
    expect(await audit(db, "upstream_keys.sealed")).toEqual([
      {
        org_id: null,
        actor_id: null,
        actor_name: OPERATOR,
        actor_email: null,
        target: null,
        old_value: null,
        new_value: JSON.stringify({ models: ["llama"] }),
      },
    ]);
  });

  it("refuses, naming the model and changing nothing, when a key opens with neither secret", async () => {
    target = await database();
    const { db } = target;
    await models(db, { secret: OLD }, "llama");
    const before = await stored(db);

    secrets(NEW, "");
    expect(await run("reseal-upstream-keys")).toBe(1);
    expect(err.at(-1)).toBe(
      "Nothing changed: UPSTREAM_KEYS_SECRET does not open the upstream API key of model 'llama': set the secret the keys were sealed with.",
    );
    secrets(NEW, `not-${OLD}`);
    expect(await run("reseal-upstream-keys")).toBe(1);
    expect(err.at(-1)).toBe(
      "Nothing changed: Neither UPSTREAM_KEYS_SECRET nor UPSTREAM_KEYS_SECRET_PREVIOUS opens the upstream API key of model 'llama': set the secret the keys were sealed with.",
    );
    expect(await stored(db)).toEqual(before);
    expect(await audit(db, "upstream_keys.sealed")).toEqual([]);

    secrets("", "");
    expect(await run("reseal-upstream-keys")).toBe(1);
    expect(err).toEqual(["UPSTREAM_KEYS_SECRET is not set: set the secret to seal the keys under, or pass --unseal to store them in the clear."]);
    secrets("short", "");
    expect(await run("reseal-upstream-keys")).toBe(1);
    expect(err).toEqual(["Invalid configuration: UPSTREAM_KEYS_SECRET: must be at least 32 characters (it has 5)"]);
    expect(await run("reseal-upstream-keys", "--force")).toBe(2);
    expect(err).toEqual(["Usage: node build/cli.js reseal-upstream-keys [--unseal]"]);
    expect(await stored(db)).toEqual(before);
  });

  it("refuses, as the server does, UPSTREAM_KEYS_SECRET_PREVIOUS set to UPSTREAM_KEYS_SECRET: a rotation not made", async () => {
    target = await database();
    const { db } = target;
    await models(db, { secret: OLD }, "llama");
    const before = await stored(db);

    secrets(OLD, OLD);
    expect(await run("reseal-upstream-keys")).toBe(1);
    expect(err).toEqual([
      "Invalid configuration: UPSTREAM_KEYS_SECRET_PREVIOUS: the same as UPSTREAM_KEYS_SECRET (give the new secret as UPSTREAM_KEYS_SECRET, the old one here)",
    ]);
    expect(out).toEqual([]);
    expect(await stored(db)).toEqual(before);
    expect(await audit(db, "upstream_keys.sealed")).toEqual([]);
  });

  it("--unseal stores every key as given, with the old secret as the previous one only, and warns", async () => {
    target = await database();
    const { db } = target;
    await models(db, { secret: OLD }, "llama", "qwen");

    secrets(OLD, "");
    expect(await run("reseal-upstream-keys", "--unseal")).toBe(1);
    expect(err).toEqual([
      "UPSTREAM_KEYS_SECRET is set: to store the keys in the clear, take it out of every process's settings and this command's, giving its value as UPSTREAM_KEYS_SECRET_PREVIOUS instead (README, \"Rotating the upstream keys secret\").",
    ]);
    expect(Object.values(await stored(db))).not.toContain(KEY);
    // Without either secret, the advice is the setting --unseal takes, not the one it refuses.
    secrets("", "");
    expect(await run("reseal-upstream-keys", "--unseal")).toBe(1);
    expect(err.at(-1)).toBe(
      "Nothing changed: The upstream API keys in the database are sealed (model 'llama'): to store them in the clear, set UPSTREAM_KEYS_SECRET_PREVIOUS to the secret they were sealed with.",
    );
    expect(Object.values(await stored(db))).not.toContain(KEY);

    secrets("", OLD);
    expect(await run("reseal-upstream-keys", "--unseal")).toBe(0);
    expect(out).toEqual(["Stored 2 upstream API keys in the clear (llama, qwen)."]);
    expect(err.at(-1)).toMatch(/^Warning: the upstream API keys are now stored as given/);
    expect(await stored(db)).toEqual({ llama: KEY, qwen: KEY });
    expect(await run("reseal-upstream-keys", "--unseal")).toBe(0);
    expect(out).toEqual(["Stored 0 upstream API keys in the clear; 2 already were."]);
    expect(await audit(db, "upstream_keys.unsealed")).toMatchObject([{ actor_name: OPERATOR, new_value: JSON.stringify({ models: ["llama", "qwen"] }) }]);
    // A process without any secret starts on them.
    expect(await keysWith(db, {})).toEqual([KEY, KEY]);
  });
});
