import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AuditEntry } from "@contract/audit";
import type { Harness, Session } from "./harness";
import { createHarness } from "./harness";

let h: Harness;
let admin: Session & { orgId: number };

beforeEach(async () => {
  h = await createHarness();
  ({ admin } = await h.team());
});
afterEach(() => h.close());

async function audit(action: string): Promise<AuditEntry[]> {
  const response = await admin.call("GET", `/audit?action=${action}`);
  expect(response.status).toBe(200);
  return (await response.json()).entries;
}

describe("the audit log of a join", () => {
  it("names the code joined with as invite.created and invite.revoked name it", async () => {
    const code = (await (await admin.call("POST", "/organizations/invites", { status: "multi-use" })).json()).code as string;
    const newcomer = await h.signIn("Newcomer");
    expect((await newcomer.call("POST", `/auth/join/${code.toLowerCase()}`)).status).toBe(200);
    const created = (await audit("invite.created"))[0];
    const joined = (await audit("member.joined")).find((e) => e.actor?.id === newcomer.userId);
    expect(joined).toMatchObject({ target: `${code.slice(0, 4)}…`, newValue: { role: "member", invite: "multi-use" } });
    expect(joined?.target).toBe(created.target);
    expect(JSON.stringify(await audit("member.joined"))).not.toContain(code);
  });
});
