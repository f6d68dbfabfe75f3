import { describe, expect, it } from "vitest";
import { z } from "zod";
import { errorBodySchema, fieldErrors, issueText, readErrorBody } from "./errors";

describe("readErrorBody: what a failed answer says (SPEC §8, DESIGN §3)", () => {
  it("reads the contract's error and its fields", () => {
    const body = JSON.stringify({ error: "name: Organization name is required", fields: { name: "Organization name is required" } });
    expect(readErrorBody(body, "Failed")).toEqual({ error: "name: Organization name is required", fields: { name: "Organization name is required" } });
    expect(readErrorBody(JSON.stringify({ error: "Organization signup is disabled" }), "Failed").error).toBe("Organization signup is disabled");
  });

  it("reads the OpenAI-shaped error's message", () => {
    expect(readErrorBody(JSON.stringify({ error: { message: "Model not found", type: "invalid_request_error" } }), "Failed").error).toBe("Model not found");
  });

  it("shows a short plain-text body, else the default", () => {
    expect(readErrorBody("Bad Gateway", "Failed to create organization").error).toBe("Bad Gateway");
    expect(readErrorBody("<html>error</html>", "Failed to create organization").error).toBe("Failed to create organization");
    expect(readErrorBody("x".repeat(301), "Failed").error).toBe("Failed");
    expect(readErrorBody("", "Failed to join organization").error).toBe("Failed to join organization");
    expect(readErrorBody(JSON.stringify({ nope: 1 }), "Failed to join organization").error).toBe("Failed to join organization");
    expect(readErrorBody(JSON.stringify({ error: "" }), "Failed").error).toBe("Failed");
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
