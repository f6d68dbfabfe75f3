import { describe, expect, it } from "vitest";
import { loadReceipt, RECEIPT_NOT_FOUND } from "./receipt";

const answer = (status: number, body: unknown) => () => Promise.resolve(new Response(JSON.stringify(body), { status }));

describe("a reply's receipt", () => {
  it("the platform does not have for the active organization says it was not found, not that it is not available yet", async () => {
    expect(await loadReceipt("rcpt_1", answer(404, { error: "Receipt not found" }))).toEqual({ ok: false, message: RECEIPT_NOT_FOUND });
    expect(RECEIPT_NOT_FOUND).toMatch(/^Receipt not found/);
  });

  it("refused otherwise says why in the platform's words, and a failed request says it failed", async () => {
    expect(await loadReceipt("rcpt_1", answer(401, { error: "Not signed in" }))).toEqual({ ok: false, message: "Not signed in" });
    expect(await loadReceipt("rcpt_1", () => Promise.reject(new TypeError("offline")))).toEqual({ ok: false, message: "Failed to load receipt" });
  });

  it("found is the receipt", async () => {
    const receipt = { id: "rcpt_1", inputTokens: 3, outputTokens: 5 };
    expect(await loadReceipt("rcpt_1", answer(200, receipt))).toEqual({ ok: true, receipt });
  });
});
