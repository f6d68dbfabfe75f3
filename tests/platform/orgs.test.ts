import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Harness } from "./harness";
import { createHarness } from "./harness";

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(() => h.close());

describe("POST /organizations", () => {
  it("creates the organization with the creator as admin and makes it active", async () => {
    const user = await h.signIn();
    const response = await user.call("POST", "/organizations", { name: "  Acme  " });
    expect(response.status).toBe(201);
    const org = await response.json();
    expect(org).toMatchObject({ name: "Acme" });
    const session = await (await user.call("GET", "/auth/session")).json();
    expect(session.activeOrganization).toMatchObject({ id: org.id, name: "Acme", hasPaymentMethod: false });
    expect(session.activeRole).toBe("admin");
  });

  it("refuses a blank or over-long name with a clear 400", async () => {
    const user = await h.signIn();
    for (const name of ["   ", "x".repeat(101)]) {
      const response = await user.call("POST", "/organizations", { name });
      expect(response.status).toBe(400);
      expect((await response.json()).error).toMatch(/name/i);
    }
  });
});
