import { parseForm } from "~/lib/parse-form";
import { describe, expect, it } from "vitest";
import { AMOUNT_DECIMALS } from "@contract/billing";
import { CREDIT_NOT_POSITIVE, CREDIT_TOO_LARGE, REASON_REQUIRED, REASON_TOO_LONG } from "@contract/system";
import { CREDIT_AMOUNT_FORMAT, CREDIT_AMOUNT_REQUIRED, grantCreditForm, reverseCreditForm } from "./org-form";

// Taking credit back is held to the rules of granting it.
describe.each([
  ["grant-credit", grantCreditForm],
  ["reverse-credit", reverseCreditForm],
] as const)("the %s form", (intent, schema) => {
  function submit(fields: Record<string, string>) {
    const data = new FormData();
    data.set("intent", intent);
    data.set("orgId", "7");
    for (const [k, v] of Object.entries(fields)) data.set(k, v);
    return parseForm(data, { schema });
  }

  it("reads a plain amount and a trimmed reason", () => {
    const done = submit({ amount: "12.50", reason: "  Welcome trial " });
    expect(done.status).toBe("success");
    expect(done.status === "success" && done.value).toEqual({ intent, orgId: 7, amount: 12.5, reason: "Welcome trial" });
  });

  it("names each refused field with the platform's words", () => {
    const cases: [Record<string, string>, string, string][] = [
      [{ amount: "", reason: "x" }, "amount", CREDIT_AMOUNT_REQUIRED],
      [{ amount: "0x10", reason: "x" }, "amount", CREDIT_AMOUNT_FORMAT],
      [{ amount: "1e3", reason: "x" }, "amount", CREDIT_AMOUNT_FORMAT],
      [{ amount: "0", reason: "x" }, "amount", CREDIT_NOT_POSITIVE],
      [{ amount: "10000.01", reason: "x" }, "amount", CREDIT_TOO_LARGE],
      [{ amount: "1.234", reason: "x" }, "amount", AMOUNT_DECIMALS],
      [{ amount: "5", reason: "   " }, "reason", REASON_REQUIRED],
      [{ amount: "5", reason: "x".repeat(201) }, "reason", REASON_TOO_LONG],
    ];
    for (const [fields, name, message] of cases) {
      const result = submit(fields);
      if (result.status !== "error") throw new Error(`accepted ${JSON.stringify(fields)}`);
      expect(result.error?.[name], JSON.stringify(fields)).toEqual([message]);
    }
  });
});
