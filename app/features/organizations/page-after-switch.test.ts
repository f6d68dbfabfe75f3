import { describe, expect, it } from "vitest";
import { pageAfterSwitch } from "./page-after-switch";

const OTHER = 42;
const SYSTEM = 1;

describe("the page after switching organization", () => {
  it("stays on a page every organization has, with its view settings", () => {
    expect(pageAfterSwitch("/billing", OTHER, "admin")).toBe("/billing");
    expect(pageAfterSwitch("/usage?days=90&chart=cost", OTHER, "admin")).toBe("/usage?days=90&chart=cost");
    expect(pageAfterSwitch("/chat?model=builtin", OTHER, "admin")).toBe("/chat?model=builtin");
    expect(pageAfterSwitch("/playground/image/text-to-image", OTHER, "admin")).toBe("/playground/image/text-to-image");
    expect(pageAfterSwitch("/organizations", OTHER, "admin")).toBe("/organizations");
    expect(pageAfterSwitch("/", OTHER, "admin")).toBe("/");
  });

  it("leaves a system page for /team unless the new organization is the system organization", () => {
    expect(pageAfterSwitch("/system/orgs", OTHER, "admin")).toBe("/team");
    expect(pageAfterSwitch("/model-editor?model=builtin", OTHER, "admin")).toBe("/team");
    expect(pageAfterSwitch("/system/orgs", SYSTEM, "admin")).toBe("/system/orgs");
    expect(pageAfterSwitch("/systematic", OTHER, "admin")).toBe("/systematic");
  });

  it("leaves an admin-only page for /team when the role in the new organization is not admin", () => {
    expect(pageAfterSwitch("/audit?days=30", OTHER, "member")).toBe("/team");
    expect(pageAfterSwitch("/audit", SYSTEM, "member")).toBe("/team");
    expect(pageAfterSwitch("/audit", OTHER, null)).toBe("/team");
    expect(pageAfterSwitch("/audit?days=30", OTHER, "admin")).toBe("/audit?days=30");
    // Only the admin-only page itself: a member keeps the pages every member has.
    expect(pageAfterSwitch("/auditors", OTHER, "member")).toBe("/auditors");
    expect(pageAfterSwitch("/billing", OTHER, "member")).toBe("/billing");
    expect(pageAfterSwitch("/tokens", OTHER, "member")).toBe("/tokens");
  });

  it("drops what names a thing of the organization left behind: the page opens on its list", () => {
    expect(pageAfterSwitch("/tokens?edit=pk_abc123", OTHER, "admin")).toBe("/tokens");
    expect(pageAfterSwitch("/billing?before=1234", OTHER, "admin")).toBe("/billing");
    expect(pageAfterSwitch("/billing/success?setup_intent=seti_1&redirect_status=succeeded", OTHER, "admin")).toBe("/billing");
  });

  it("goes to /team from pages outside the console and from anything that is not a same-site path", () => {
    for (const path of [
      "/welcome",
      "/switch-organization",
      "/resources/chat",
      null,
      "",
      "https://evil.example/team",
      "//evil.example",
      "team",
      "/.//evil.example",
      "/%2e//evil.example",
    ]) {
      expect(pageAfterSwitch(path, OTHER, "admin"), String(path)).toBe("/team");
    }
  });
});
