import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

/** The Cookie header a browser sends back after these Set-Cookie headers. */
const cookieOf = (...headers: string[]) => headers.map((h) => h.split(";")[0]).join("; ");

describe("a refused ledger export's flash", () => {
  beforeAll(() => vi.stubEnv("SESSION_SECRET", "export-refusal-test-secret-0123456789"));
  afterAll(() => vi.unstubAllEnvs());

  it("is read back once, with its dates, and the answer clears it", async () => {
    const { exportRefusalHeader, takeExportRefusal } = await import("./ledger-export.server");
    const header = await exportRefusalHeader({ error: "reversed", from: "2026-11-30", to: "2026-11-01" });
    expect(header).toMatch(/Path=\/billing/);
    expect(header).toMatch(/HttpOnly/);
    const taken = await takeExportRefusal(new Request("http://console.test/billing", { headers: { cookie: cookieOf(header) } }));
    expect(taken.refusal).toEqual({ error: "reversed", from: "2026-11-30", to: "2026-11-01" });
    expect(taken.header).toMatch(/^export_refusal=;.*Max-Age=0/);
  });

  it("is nothing without the cookie, or with a forged one", async () => {
    const { takeExportRefusal } = await import("./ledger-export.server");
    expect(await takeExportRefusal(new Request("http://console.test/billing"))).toEqual({ refusal: null, header: null });
    const forged = `export_refusal=${encodeURIComponent(btoa(JSON.stringify({ error: "reversed", from: "", to: "" })))}`;
    expect((await takeExportRefusal(new Request("http://console.test/billing", { headers: { cookie: forged } }))).refusal).toBeNull();
  });
});
