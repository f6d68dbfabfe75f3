import { afterEach, describe, expect, it } from "vitest";
import { newInProcessBindings } from "../../platform/auth/shared-sessions";
import type { Harness, Session } from "./harness";
import { createHarness } from "./harness";

let h: Harness;
afterEach(() => h?.close());

/** One browser request's calls, as the console's server makes them: the same cookie and bindings. */
function browserRequest(user: Session) {
  const bindings = newInProcessBindings();
  return (method: string, path: string, json?: unknown) => h.fetch(path, { method, cookie: user.cookie, json, bindings });
}

/** Which organization an org-scoped read answered for: Acme has one invite code, Second none. */
const answeredFor = async (response: Response) => (((await response.json()) as unknown[]).length === 1 ? "Acme" : "Second");

describe("a page's in-process calls share the platform's session lookup", () => {
  it("looks the session up once for all of one browser request's reads, and again for the next request", async () => {
    h = await createHarness({ allowDevSignin: true });
    const admin = await h.admin("Acme");
    const page = browserRequest(admin);
    expect((await (await page("GET", "/auth/session")).json()).valid).toBe(true);
    // Signed out elsewhere while the page is being made: the page's later reads use the lookup its
    // first call made, as if they had been made a moment earlier.
    await h.deps.db.deleteFrom("sessions").execute();
    expect((await page("GET", "/organizations/members")).status).toBe(200);
    expect((await page("GET", "/tokens")).status).toBe(200);
    // The next browser request, a program's request and a write all look it up again.
    expect((await browserRequest(admin)("GET", "/organizations/members")).status).toBe(401);
    expect((await admin.call("GET", "/organizations/members")).status).toBe(401);
    expect((await page("POST", "/organizations/invites", { status: "multi-use" })).status).toBe(401);
    expect((await page("GET", "/organizations/members")).status).toBe(401);
  });

  it("looks it up again after a write, so an action's loaders see what the action changed", async () => {
    h = await createHarness({ allowDevSignin: true });
    const admin = await h.admin("Acme");
    const { id: second } = await (await admin.call("POST", "/organizations", { name: "Second" })).json();
    await admin.call("POST", "/auth/switch", { organizationId: admin.orgId });
    await admin.call("POST", "/organizations/invites", { status: "multi-use" });

    const page = browserRequest(admin);
    expect(await answeredFor(await page("GET", "/organizations/invites"))).toBe("Acme");
    expect((await page("POST", "/auth/switch", { organizationId: second })).status).toBe(200);
    expect(await answeredFor(await page("GET", "/organizations/invites"))).toBe("Second");

    // A read that overlaps the write does not leave its lookup behind for the reads after the write.
    const [switched, overlapping] = await Promise.all([page("POST", "/auth/switch", { organizationId: admin.orgId }), page("GET", "/organizations/invites")]);
    expect(switched.status).toBe(200);
    expect(overlapping.status).toBe(200);
    expect(await answeredFor(await page("GET", "/organizations/invites"))).toBe("Acme");
  });
});
