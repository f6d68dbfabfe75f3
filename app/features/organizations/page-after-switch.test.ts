import { describe, expect, it } from "vitest";
import { pageAfterSwitch } from "./page-after-switch";

const OTHER = 42;
const SYSTEM = 1;

describe("the page after switching organization", () => {
  it("stays on a page every organization has, with its view settings", () => {
    expect(pageAfterSwitch("/billing", OTHER)).toBe("/billing");
    expect(pageAfterSwitch("/usage?days=90&chart=cost", OTHER)).toBe("/usage?days=90&chart=cost");
    expect(pageAfterSwitch("/chat?model=builtin", OTHER)).toBe("/chat?model=builtin");
    expect(pageAfterSwitch("/playground/image/text-to-image", OTHER)).toBe("/playground/image/text-to-image");
    expect(pageAfterSwitch("/organizations", OTHER)).toBe("/organizations");
    expect(pageAfterSwitch("/", OTHER)).toBe("/");
  });

  it("leaves a system page for /team unless the new organization is the system organization", () => {
    expect(pageAfterSwitch("/system/orgs", OTHER)).toBe("/team");
    expect(pageAfterSwitch("/model-editor?model=builtin", OTHER)).toBe("/team");
    expect(pageAfterSwitch("/system/orgs", SYSTEM)).toBe("/system/orgs");
    expect(pageAfterSwitch("/systematic", OTHER)).toBe("/systematic");
  });

  it("drops what names a thing of the organization left behind: the page opens on its list", () => {
    expect(pageAfterSwitch("/tokens?edit=pk_abc123", OTHER)).toBe("/tokens");
    expect(pageAfterSwitch("/billing?before=1234", OTHER)).toBe("/billing");
    expect(pageAfterSwitch("/billing/success?setup_intent=seti_1&redirect_status=succeeded", OTHER)).toBe("/billing");
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
      expect(pageAfterSwitch(path, OTHER), String(path)).toBe("/team");
    }
  });
});
