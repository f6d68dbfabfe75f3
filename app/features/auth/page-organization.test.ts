import { describe, expect, it } from "vitest";
import { namedOrganization, staleOrganizationMessage } from "./page-organization";

const session = {
  activeOrganization: { id: 3, name: "Yellowstone Co" },
  organizations: [
    { id: 2, name: "Xanadu Labs" },
    { id: 3, name: "Yellowstone Co" },
  ],
};

describe("an action from a page of another organization than the active one", () => {
  it("is let through when the page's organization is the active one", () => {
    expect(staleOrganizationMessage(3, session, "Nothing was changed")).toBeNull();
  });

  it("names both organizations when another tab made the other one active", () => {
    expect(staleOrganizationMessage(2, session, "Nothing was changed")).toBe(
      "Nothing was changed: this page was for \u2068Xanadu Labs\u2069, and \u2068Yellowstone Co\u2069 has since been made active in another tab. The page now shows \u2068Yellowstone Co\u2069.",
    );
  });

  it("says so when the user was removed from the page's organization, without naming it", () => {
    expect(staleOrganizationMessage(9, session, "Nothing was sent")).toBe(
      "Nothing was sent: you are no longer a member of the organization this page was for. The page now shows \u2068Yellowstone Co\u2069.",
    );
  });

  it("reads an id only when it is one", () => {
    expect(namedOrganization("12")).toBe(12);
    for (const value of [null, undefined, "", "x", "1e3", "-1", "1.5"]) expect(namedOrganization(value)).toBeNull();
  });
});
