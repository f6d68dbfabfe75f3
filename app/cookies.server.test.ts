import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

const secret = "cookie-test-secret-cookie-test-secret";

describe("the console's own cookies (toast, return_to)", () => {
  beforeAll(() => {
    vi.stubEnv("SESSION_SECRET", secret);
    vi.stubEnv("APP_ORIGIN", "https://console.example");
  });
  afterAll(() => vi.unstubAllEnvs());

  it("are signed, httpOnly, SameSite=Lax and Secure under an https APP_ORIGIN", async () => {
    const { toastHeader } = await import("./toast.server");
    const { rememberPath } = await import("./session.server");
    for (const header of [
      await toastHeader({ kind: "success", message: "Saved" }),
      (await rememberPath(new Request("http://console.example/login"), "/billing"))!,
    ]) {
      expect(header).toMatch(/HttpOnly/);
      expect(header).toMatch(/SameSite=Lax/);
      expect(header).toMatch(/Secure/);
      // Remix signs as value.signature: the value part is followed by a dot and an HMAC.
      const value = decodeURIComponent(header.split(";")[0].split("=").slice(1).join("="));
      expect(value).toMatch(/\.[A-Za-z0-9+/]+$/);
    }
  });

  it("read back what they wrote, and ignore a tampered or unsigned cookie", async () => {
    const { takeToast, toastHeader } = await import("./toast.server");
    const { rememberPath, takeRememberedPath } = await import("./session.server");
    const toastPair = (await toastHeader({ kind: "success", message: "Saved" })).split(";")[0];
    expect((await takeToast(new Request("http://x/", { headers: { cookie: toastPair } }))).toast).toEqual({ kind: "success", message: "Saved" });

    // Altered: another message under the old signature.
    const [name, raw] = toastPair.split("=");
    const [payload, signature] = decodeURIComponent(raw).split(".");
    const forged = btoa(JSON.stringify({ kind: "error", message: "Your account is locked: call +1 555" }));
    expect(payload).not.toBe(forged);
    const tampered = `${name}=${encodeURIComponent(`${forged}.${signature}`)}`;
    expect((await takeToast(new Request("http://x/", { headers: { cookie: tampered } }))).toast).toBeNull();
    // Unsigned, as the console wrote them before.
    expect((await takeToast(new Request("http://x/", { headers: { cookie: `toast=${encodeURIComponent(forged)}` } }))).toast).toBeNull();

    const returnTo = (await rememberPath(new Request("http://x/"), "/billing"))!.split(";")[0];
    expect((await takeRememberedPath(new Request("http://x/", { headers: { cookie: returnTo } }))).path).toBe("/billing");
    const unsignedPath = `return_to=${encodeURIComponent(btoa(JSON.stringify("/tëam")))}`;
    expect((await takeRememberedPath(new Request("http://x/", { headers: { cookie: unsignedPath } }))).path).toBeNull();
  });
});
