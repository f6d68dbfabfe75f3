import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ID_MAX } from "@contract/ids";
import { migrate, openDatabase } from "../../platform/db";
import { main } from "../../scripts/cli/index";
import type { Harness, Session } from "./harness";
import { createHarness } from "./harness";

/**
 * Ids past what PostgreSQL's `integer` id columns hold (decision 0127): answered as SQLite always did
 * (an id that cannot exist is not found, a cursor past the range bounds nothing), never a 500. Runs on
 * SQLite, and on PostgreSQL with TEST_DATABASE_URL, where each of these was "value out of range for
 * type integer".
 */

const PAST = String(ID_MAX + 1);
const HUGE = "12345678901";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe("ids past the largest an id column holds", () => {
  it("in a path are not found", async () => {
    h = await createHarness();
    const operator = await h.signIn("Operator", "operator@example.test"); // the first user: the system organization's admin
    const admin = await h.admin("Acme");
    for (const id of [PAST, HUGE]) {
      const calls: [Session, string, string, unknown, string][] = [
        [operator, "GET", `/system/organizations/${id}`, undefined, "Organization not found"],
        [operator, "PUT", `/system/organizations/${id}`, { name: "X" }, "Organization not found"],
        [operator, "POST", `/system/organizations/${id}/credits`, { amount: 10, reason: "why" }, "Organization not found"],
        [operator, "POST", `/system/organizations/${id}/credit-reversals`, { amount: 10, reason: "why" }, "Organization not found"],
        [admin, "PUT", `/organizations/members/${id}`, { role: "member" }, "Member not found"],
        [admin, "DELETE", `/organizations/members/${id}`, undefined, "Member not found"],
        [admin, "DELETE", `/organizations/invites/${id}`, undefined, "Invite not found"],
      ];
      for (const [who, method, url, body, message] of calls) {
        const r = await who.call(method, url, body);
        expect({ url, method, status: r.status, body: await r.json() }).toEqual({ url, method, status: 404, body: { error: message } });
      }
    }
    // The largest id itself is an id like any other: not found because there is none.
    expect((await operator.call("GET", `/system/organizations/${ID_MAX}`)).status).toBe(404);
  });

  it("to switch to is an organization the caller is not in", async () => {
    h = await createHarness();
    const admin = await h.admin("Acme");
    for (const organizationId of [ID_MAX + 1, 12345678901, 1e20]) {
      const r = await admin.call("POST", "/auth/switch", { organizationId });
      expect([organizationId, r.status, await r.json()]).toEqual([organizationId, 404, { error: "Organization not found" }]);
    }
    const session = await (await admin.call("GET", "/auth/session")).json();
    expect(session.activeOrganization.id).toBe(admin.orgId);
  });

  it("as a filter find nothing", async () => {
    h = await createHarness();
    const operator = await h.signIn("Operator", "operator@example.test");
    const admin = await h.admin("Acme");
    const audit = await operator.call("GET", `/system/audit?organization=${HUGE}`);
    expect(audit.status).toBe(200);
    expect(await audit.json()).toEqual({ entries: [], nextBefore: null });
    const exported = await operator.call("GET", `/system/audit/export?organization=${PAST}`);
    expect(exported.status).toBe(200);
    expect((await exported.text()).trim().split("\n")).toHaveLength(1); // the header only
    const usage = await admin.call("GET", `/usage?member=${HUGE}`);
    expect([usage.status, await usage.json()]).toEqual([404, { error: "Member not found" }]);
    expect((await admin.call("GET", `/usage/export?member=${PAST}`)).status).toBe(404);
  });

  it("as a `before` cursor bound nothing, as an `after` cursor leave nothing", async () => {
    h = await createHarness();
    const operator = await h.signIn("Operator", "operator@example.test");
    const admin = await h.admin("Acme");
    await operator.call("POST", `/system/organizations/${admin.orgId}/credits`, { amount: 10, reason: "welcome" });
    const same = async (who: Session, url: string, cursor: string) => {
      const first = await who.call("GET", url);
      const past = await who.call("GET", `${url}${url.includes("?") ? "&" : "?"}${cursor}`);
      expect([url, past.status]).toEqual([url, 200]);
      expect(await past.json()).toEqual(await first.json());
    };
    await same(operator, "/system/organizations", `before=${HUGE}`);
    await same(operator, "/system/audit", `before=${PAST}`);
    await same(admin, "/audit", `before=${HUGE}`);
    await same(admin, "/billing/ledger", `before=${HUGE}`);
    expect((await (await admin.call("GET", "/billing/ledger")).json()).length).toBe(1);
    const after = await admin.call("GET", `/billing/ledger?after=${HUGE}`);
    expect([after.status, await after.json()]).toEqual([200, []]);
    // Not a number is still refused, as before.
    expect((await admin.call("GET", "/billing/ledger?before=abc")).status).toBe(400);
  });

  it("typed in the organization search are text: a phone number finds the organizations named with it", async () => {
    h = await createHarness();
    const operator = await h.signIn("Operator", "operator@example.test");
    const named = await h.admin(`Call ${HUGE}`);
    await h.admin("Acme");
    const r = await operator.call("GET", `/system/organizations?q=${HUGE}`);
    expect(r.status).toBe(200);
    expect((await r.json()).data.map((o: { id: number }) => o.id)).toEqual([named.orgId]);
    const none = await operator.call("GET", "/system/organizations?q=999999999999999");
    expect([none.status, (await none.json()).data]).toEqual([200, []]);
    // An id within the range still leads the page.
    const byId = await operator.call("GET", `/system/organizations?q=${named.orgId}`);
    expect((await byId.json()).data[0].id).toBe(named.orgId);
  });
});

describe("an operator command given an id past the largest", () => {
  async function database() {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cli-ids-"));
      const file = path.join(dir, "console.db");
      const db = openDatabase({ path: file });
      await migrate(db);
      return { env: { DATABASE_URL: "", DATABASE_PATH: file }, db, drop: async () => fs.rmSync(dir, { recursive: true, force: true }) };
    }
    const name = `t_ids_${process.pid}_${Date.now()}`;
    const admin = async (query: string) => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(query).finally(() => client.end());
    };
    await admin(`create database ${name}`);
    const scoped = new URL(url);
    scoped.pathname = `/${name}`;
    const db = openDatabase({ url: scoped.toString() });
    await migrate(db);
    return { env: { DATABASE_URL: scoped.toString(), DATABASE_PATH: "" }, db, drop: () => admin(`drop database if exists ${name} with (force)`) };
  }

  it("says there is no such organization (exit 1), not a database error", async () => {
    const target = await database();
    try {
      for (const [name, value] of Object.entries(target.env)) vi.stubEnv(name, value);
      const errors: string[] = [];
      vi.spyOn(console, "error").mockImplementation((...a: unknown[]) => void errors.push(a.join(" ")));
      vi.spyOn(console, "log").mockImplementation(() => {});
      for (const argv of [
        ["grant-credit", HUGE, "10", "why"],
        ["reverse-credit", PAST, "10", "why"],
        ["billing-mode", HUGE, "invoice"],
      ]) {
        errors.length = 0;
        expect(await main(argv)).toBe(1);
        expect(errors.at(-1)).toBe(`No organization with id ${argv[1]}`);
      }
    } finally {
      await target.db.destroy();
      await target.drop();
    }
  });
});
