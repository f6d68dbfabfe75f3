import { describe, expect, it } from "vitest";
import type { Session } from "~/platform/schemas";
import { guard, homeFor, safeRedirectPath } from "./guards";

const signedOut: Session = { valid: false };
const user = { id: 7, name: "Ada", email: "ada@example.test" };
const noOrg: Session = { valid: true, user, organizations: [], activeOrganization: null, activeRole: null };
const inOrg = (id: number): Session => ({
  valid: true,
  user,
  organizations: [{ id, name: "Acme" }],
  activeOrganization: { id, name: "Acme", hasPaymentMethod: false },
  activeRole: "member",
});

describe("route guards (SPEC §2)", () => {
  it("sends signed-out visitors of protected routes to /login and remembers the page", () => {
    for (const access of ["signed-in", "welcome", "organization", "system"] as const) {
      expect(guard(access, signedOut)).toEqual({ allow: false, redirectTo: "/login", remember: true });
    }
  });

  it("keeps /login for signed-out users; a signed-in user goes to /team or /welcome", () => {
    expect(guard("signed-out", signedOut)).toEqual({ allow: true });
    expect(guard("signed-out", inOrg(5))).toMatchObject({ allow: false, redirectTo: "/team" });
    expect(guard("signed-out", noOrg)).toMatchObject({ allow: false, redirectTo: "/welcome" });
  });

  it("shows /welcome only to users without an organization", () => {
    expect(guard("welcome", noOrg)).toEqual({ allow: true });
    expect(guard("welcome", inOrg(5))).toEqual({ allow: false, redirectTo: "/team", remember: false });
  });

  it("needs an active organization for organization screens", () => {
    expect(guard("organization", noOrg)).toEqual({ allow: false, redirectTo: "/welcome", remember: false });
    expect(guard("organization", inOrg(5))).toEqual({ allow: true });
  });

  it("needs organization 1 for the system pages, otherwise /team", () => {
    expect(guard("system", inOrg(5))).toEqual({ allow: false, redirectTo: "/team", remember: false });
    expect(guard("system", inOrg(1))).toEqual({ allow: true });
    expect(guard("system", noOrg)).toMatchObject({ redirectTo: "/welcome" });
  });

  it("homeFor follows the /login rule", () => {
    expect(homeFor(inOrg(3))).toBe("/team");
    expect(homeFor(noOrg)).toBe("/welcome");
    expect(homeFor(signedOut)).toBe("/login");
  });
});

describe("safeRedirectPath: no open redirect", () => {
  it("accepts same-site paths with their query", () => {
    expect(safeRedirectPath("/billing")).toBe("/billing");
    expect(safeRedirectPath("/chat?model=x")).toBe("/chat?model=x");
  });

  it("refuses other hosts, schemes and tricks", () => {
    for (const bad of [
      "//evil.example",
      "/\\evil.example",
      "https://evil.example",
      "evil.example",
      "",
      null,
      undefined,
      "/\t/evil.example",
      "javascript:alert(1)",
      "/.//evil.example",
      "/..//evil.example",
      "/x/..//evil.example",
      "/%2e//evil.example",
      "/./\\evil.example",
    ]) {
      expect(safeRedirectPath(bad)).toBeNull();
    }
  });

  it("percent-encodes characters a Location header can't carry, and refuses what can't be encoded", () => {
    expect(safeRedirectPath("/team?q=tëam 1")).toBe("/team?q=t%C3%ABam%201");
    expect(safeRedirectPath("/%E2%82%AC")).toBe("/%E2%82%AC");
    expect(safeRedirectPath("/chat?x=\u{1F600}")).toBe("/chat?x=%F0%9F%98%80");
    expect(safeRedirectPath("/a\uD800")).toBeNull();
    expect(safeRedirectPath("/team\u007f")).toBeNull();
    expect(safeRedirectPath("/\u3000/evil.example")).toBe("/%E3%80%80/evil.example");
    // The result is always a valid header value.
    expect(() => new Headers({ Location: safeRedirectPath("/ünïcödé")! })).not.toThrow();
  });
});
