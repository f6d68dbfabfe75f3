import { describe, expect, it } from "vitest";
import { z } from "zod";
import { errorBodySchema, errorText, fieldErrors, issueText, readErrorBody } from "./errors";

describe("readErrorBody / errorText: what a failed answer says (SPEC §8, DESIGN §3)", () => {
  it("reads the contract's error and its fields", () => {
    const body = JSON.stringify({ error: "name: Organization name is required", fields: { name: "Organization name is required" } });
    expect(readErrorBody(body, "Failed")).toEqual({ error: "name: Organization name is required", fields: { name: "Organization name is required" } });
    expect(errorText(JSON.stringify({ error: "Organization signup is disabled" }), "Failed")).toBe("Organization signup is disabled");
  });

  it("reads the OpenAI-shaped error's message", () => {
    expect(errorText(JSON.stringify({ error: { message: "Model not found", type: "invalid_request_error" } }), "Failed")).toBe("Model not found");
  });

  it("shows a short plain-text body, else the default", () => {
    expect(errorText("Bad Gateway", "Failed to create organization")).toBe("Bad Gateway");
    expect(errorText("<html>error</html>", "Failed to create organization")).toBe("Failed to create organization");
    expect(errorText("x".repeat(301), "Failed")).toBe("Failed");
    expect(errorText("", "Failed to join organization")).toBe("Failed to join organization");
    expect(errorText(JSON.stringify({ nope: 1 }), "Failed to join organization")).toBe("Failed to join organization");
    expect(errorText(JSON.stringify({ error: "" }), "Failed")).toBe("Failed");
  });

  it("ignores fields that are not messages by name", () => {
    expect(readErrorBody(JSON.stringify({ error: "Refused", fields: ["name"] }), "Failed")).toEqual({ error: "Refused" });
  });

  it("is what errorBodySchema describes", () => {
    expect(errorBodySchema.safeParse(readErrorBody(JSON.stringify({ error: "E", fields: { a: "b" } }), "F")).success).toBe(true);
  });
});

describe("fieldErrors / issueText: a zod refusal as the error body", () => {
  const schema = z.object({ name: z.string().min(1, "Name is required"), rateCard: z.object({ id: z.string().min(1, "Name the rate card") }) });
  const issues = schema.safeParse({ name: "", rateCard: { id: "" } }).error!.issues;

  it("keeps the first message of each field, by dotted path or by the form's name", () => {
    expect(fieldErrors(issues)).toEqual({ name: "Name is required", "rateCard.id": "Name the rate card" });
    expect(fieldErrors(issues, { "rateCard.id": "rateCardId" })).toEqual({ name: "Name is required", rateCardId: "Name the rate card" });
  });

  it("writes the first issue as one line", () => {
    expect(issueText(issues)).toBe("name: Name is required");
    expect(issueText([])).toBe("Invalid request");
  });
});
