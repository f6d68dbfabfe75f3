import { beforeAll, describe, expect, it, vi } from "vitest";
import { platformStatus, readForm, redirectWithToast } from "./actions.server";
import { isPendingSubmission } from "./use-is-pending";

describe("the shared action helpers", () => {
  // The server sets it at start; the toast cookie is signed with it.
  beforeAll(() => vi.stubEnv("SESSION_SECRET", "test-secret-test-secret-test-secret"));

  it("answer the platform's refusals with its status, and its failures with 502", () => {
    expect(platformStatus(400)).toBe(400);
    expect(platformStatus(409)).toBe(409);
    expect(platformStatus(500)).toBe(502);
    expect(platformStatus(503)).toBe(502);
  });

  it("redirect with a toast cookie, keeping the platform's cookies", async () => {
    const headers = new Headers();
    headers.append("Set-Cookie", "session=abc; Path=/");
    const response = await redirectWithToast("/tokens", { kind: "success", message: "Token tk_1 revoked." }, { headers });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/tokens");
    const cookies = response.headers.getSetCookie();
    expect(cookies[0]).toBe("session=abc; Path=/");
    expect(cookies[1]).toMatch(/^toast=/);
  });

  it("read a form, and answer a body that is not one with 400 instead of a crash", async () => {
    const ok = new Request("http://x/", { method: "POST", body: new URLSearchParams({ intent: "revoke" }) });
    expect((await readForm(ok)).get("intent")).toBe("revoke");
    const broken = new Request("http://x/", { method: "POST", headers: { "content-type": "multipart/form-data; boundary=zzz" }, body: "not multipart at all" });
    const thrown = await readForm(broken).catch((e: unknown) => e);
    expect(thrown).toMatchObject({ init: { status: 400 } });
  });
});

describe("the pending state of a form", () => {
  const submitting = (fields: Record<string, string>, formAction = "/team") => {
    const formData = new FormData();
    for (const [k, v] of Object.entries(fields)) formData.append(k, v);
    return { state: "submitting" as const, formData, formAction };
  };

  it("is the submission of that intent, that row and that route only", () => {
    const nav = submitting({ intent: "remove", memberId: "4" });
    expect(isPendingSubmission(nav, { intent: "remove", fields: { memberId: 4 } })).toBe(true);
    expect(isPendingSubmission(nav, { intent: "remove", fields: { memberId: 5 } })).toBe(false);
    expect(isPendingSubmission(nav, { intent: "role" })).toBe(false);
    expect(isPendingSubmission(nav, { formAction: "/switch-organization" })).toBe(false);
    expect(isPendingSubmission(submitting({ organizationId: "2" }, "/switch-organization"), { formAction: "/switch-organization" })).toBe(true);
    expect(isPendingSubmission(nav)).toBe(true);
  });

  it("is false when nothing is submitted", () => {
    expect(isPendingSubmission({ state: "idle", formData: undefined, formAction: undefined }, {})).toBe(false);
    expect(isPendingSubmission({ state: "loading", formData: undefined, formAction: undefined }, {})).toBe(false);
  });
});
