import { afterEach, describe, expect, it } from "vitest";
import type { AuditEntry, AuditPage } from "@contract/audit";
import { AUDIT_ACTION_LABELS } from "@contract/audit";
import { auditValueLines } from "~/features/audit/audit-values";
import type { Harness, Session } from "./harness";
import { createHarness } from "./harness";
import { afterBom } from "../csv";

/** Decision 0126: the model editor's changes are audited in the system organization's log, never with the key. */

let h: Harness;
afterEach(async () => {
  await h?.close();
});

const SECRET = "sk-upstream-secret-0126";
const NEW_SECRET = "sk-upstream-secret-rotated";

const body = {
  displayName: "Priced",
  provider: "vllm",
  contextSize: 8192,
  baseUrl: "http://upstream.test/v1",
  upstreamModel: "x",
  rateCard: { id: "rc-1", inputPerMillion: 1, outputPerMillion: 2 },
};

async function modelEntries(session: Session, path = "/audit"): Promise<AuditEntry[]> {
  const response = await session.call("GET", path);
  expect(response.status).toBe(200);
  return ((await response.json()) as AuditPage).entries.filter((e) => e.action.startsWith("model."));
}

describe("the model editor's audit entries", () => {
  it("records an add, each change with old and new values, and a delete, in organization 1's log, by whom, never the key", async () => {
    h = await createHarness();
    const operator = await h.signIn("Operator", "operator@example.test"); // first sign-in: system admin, active in organization 1
    expect((await operator.call("PUT", "/models/priced", { ...body, apiKey: SECRET, mode: "add" })).status).toBe(200);
    // Prices and the status override change; the key is left as it is.
    const repriced = { ...body, rateCard: { id: "rc-1", inputPerMillion: 100, outputPerMillion: 200 }, status: "maintenance", mode: "edit" };
    expect((await operator.call("PUT", "/models/priced", repriced)).status).toBe(200);
    // Saved again unchanged: nothing to record.
    expect((await operator.call("PUT", "/models/priced", repriced)).status).toBe(200);
    // A new host with a new key, and a new display name.
    const moved = { ...repriced, displayName: "Priced (moved)", baseUrl: "https://other.test/v1", apiKey: NEW_SECRET, contextSize: 4096 };
    expect((await operator.call("PUT", "/models/priced", moved)).status).toBe(200);
    expect((await operator.call("DELETE", "/models/priced")).status).toBe(200);

    const entries = await modelEntries(operator);
    expect(entries.map((e) => e.action)).toEqual(["model.deleted", "model.changed", "model.changed", "model.created"]);
    for (const e of entries) {
      expect(e).toMatchObject({ organizationId: 1, target: "priced", actor: { name: "Operator", email: "operator@example.test" } });
    }
    const [deleted, movedEntry, repricedEntry, created] = entries;
    expect(created.oldValue).toBeNull();
    expect(created.newValue).toMatchObject({
      displayName: "Priced",
      baseUrl: "http://upstream.test/v1",
      rateCardId: "rc-1",
      inputPerMillion: 1,
      outputPerMillion: 2,
      statusOverride: null,
      provider: "vllm",
      contextSize: 8192,
      apiKeyChanged: "yes",
    });
    expect(repricedEntry.oldValue).toEqual({
      displayName: "Priced",
      baseUrl: "http://upstream.test/v1",
      rateCardId: "rc-1",
      inputPerMillion: 1,
      outputPerMillion: 2,
      statusOverride: null,
    });
    expect(repricedEntry.newValue).toEqual({
      displayName: "Priced",
      baseUrl: "http://upstream.test/v1",
      rateCardId: "rc-1",
      inputPerMillion: 100,
      outputPerMillion: 200,
      statusOverride: "maintenance",
      apiKeyChanged: "no",
    });
    // Fields besides the main ones are named only when they change.
    expect(movedEntry.oldValue).toMatchObject({ displayName: "Priced", baseUrl: "http://upstream.test/v1", contextSize: 8192 });
    expect(movedEntry.newValue).toMatchObject({ displayName: "Priced (moved)", baseUrl: "https://other.test/v1", contextSize: 4096, apiKeyChanged: "yes" });
    expect(deleted.oldValue).toMatchObject({
      displayName: "Priced (moved)",
      baseUrl: "https://other.test/v1",
      inputPerMillion: 100,
      statusOverride: "maintenance",
    });
    expect(deleted.newValue).toBeNull();

    // The console's audit page names them and shows the values in words, a field a line.
    expect([AUDIT_ACTION_LABELS["model.created"], AUDIT_ACTION_LABELS["model.changed"], AUDIT_ACTION_LABELS["model.deleted"]]).toEqual([
      "Model added",
      "Model changed",
      "Model deleted",
    ]);
    expect(auditValueLines(repricedEntry.newValue, "UTC").map(({ label, text }) => `${label}: ${text}`)).toEqual([
      "Display name: Priced",
      "Base URL: http://upstream.test/v1",
      "Rate card: rc-1",
      "Input price: $100.00 per million tokens",
      "Output price: $200.00 per million tokens",
      "Status override: maintenance",
      "API key changed: no",
    ]);

    // The system view and the CSV show them too; the action filter knows them.
    const system = await modelEntries(operator, "/system/audit?action=model.changed");
    expect(system.map((e) => [e.action, e.organizationId])).toEqual([
      ["model.changed", 1],
      ["model.changed", 1],
    ]);
    const csv = afterBom(await (await operator.call("GET", "/audit/export?action=model.deleted")).arrayBuffer());
    const lines = csv.trimEnd().split("\r\n");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(",1,model.deleted,Operator,operator@example.test,priced,");

    // Never the key, in any column.
    const raw = JSON.stringify(await h.deps.db.selectFrom("audit_log").selectAll().execute());
    expect(raw).not.toContain(SECRET);
    expect(raw).not.toContain(NEW_SECRET);
  });

  it("records nothing for a save the platform refuses (written with the change, or not at all)", async () => {
    h = await createHarness();
    const operator = await h.signIn("Operator", "operator@example.test");
    expect((await operator.call("PUT", "/models/up", { ...body, apiKey: SECRET, mode: "add" })).status).toBe(200);
    expect((await operator.call("PUT", "/models/up", { ...body, mode: "add" })).status).toBe(409);
    expect((await operator.call("PUT", "/models/up", { ...body, baseUrl: "http://collector.example/v1", mode: "edit" })).status).toBe(400);
    expect((await operator.call("PUT", "/models/gone", { ...body, mode: "edit" })).status).toBe(404);
    expect((await operator.call("DELETE", "/models/gone")).status).toBe(404);
    expect((await modelEntries(operator)).map((e) => e.action)).toEqual(["model.created"]);
  });

  it("leaves a base URL's user name, password and query stored before they were refused out of the log", async () => {
    h = await createHarness();
    const operator = await h.signIn("Operator", "operator@example.test");
    expect((await operator.call("PUT", "/models/old", { ...body, mode: "add" })).status).toBe(200);
    await h.deps.db.updateTable("models").set({ base_url: "http://user:hunter2@upstream.test/v1?key=abc" }).where("name", "=", "old").execute();
    expect((await operator.call("DELETE", "/models/old")).status).toBe(200);
    const [deleted] = await modelEntries(operator);
    expect(deleted.oldValue).toMatchObject({ baseUrl: "http://upstream.test/v1" });
    const raw = JSON.stringify(await h.deps.db.selectFrom("audit_log").selectAll().execute());
    expect(raw).not.toContain("hunter2");
    expect(raw).not.toContain("key=abc");
  });
});
