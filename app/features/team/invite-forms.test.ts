import { describe, expect, it } from "vitest";
import { parseForm } from "~/lib/parse-form";
import { inviteForm, inviteRequest, SINGLE_USE_MAXIMUM, usesText } from "./invite-forms";

const form = (entries: Record<string, string>) => {
  const data = new FormData();
  for (const [k, v] of Object.entries(entries)) data.set(k, v);
  return parseForm(data, { schema: inviteForm });
};

describe("the invite form", () => {
  it("reads an empty maximum as no limit and the expiry as days from now", () => {
    const parsed = form({ intent: "invite", kind: "multi-use", expiry: "7", maxUses: "" });
    expect(parsed.status).toBe("success");
    if (parsed.status !== "success") return;
    expect(inviteRequest(parsed.value, 1000)).toEqual({ status: "multi-use", expiresAt: 1000 + 7 * 86_400_000, maxUses: null });
  });

  it("sends a maximum with multi-use codes only: a single-use code has one use", () => {
    const parsed = form({ intent: "invite", kind: "single-use", expiry: "never", maxUses: "1" });
    expect(parsed.status).toBe("success");
    if (parsed.status !== "success") return;
    expect(inviteRequest(parsed.value, 0)).toEqual({ status: "single-use", expiresAt: null, maxUses: null });
  });

  it("refuses a larger maximum with a single-use code instead of dropping it", () => {
    const parsed = form({ intent: "invite", kind: "single-use", expiry: "never", maxUses: "5" });
    expect(parsed.status).toBe("error");
    expect(parsed.status === "error" ? parsed.error?.maxUses : null).toEqual([SINGLE_USE_MAXIMUM]);
    expect(form({ intent: "invite", kind: "multi-use", expiry: "never", maxUses: "5" }).status).toBe("success");
  });

  it("refuses a maximum that is not a whole number from 1 to 1,000", () => {
    for (const maxUses of ["0", "1001", "2.5", "abc"]) {
      const parsed = form({ intent: "invite", kind: "multi-use", expiry: "never", maxUses });
      expect(parsed.status, maxUses).toBe("error");
      expect(parsed.status === "error" ? parsed.error?.maxUses?.[0] : null, maxUses).toBe("Maximum uses must be a whole number from 1 to 1,000");
    }
  });

  it("shows uses as a count, or against the maximum", () => {
    expect(usesText(3, null)).toBe("3");
    expect(usesText(1, 5)).toBe("1 of 5");
  });
});
