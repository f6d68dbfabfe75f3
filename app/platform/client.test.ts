import { describe, expect, it } from "vitest";
import { errorText } from "./client.server";

describe("errorText: what the console shows for a failed call (SPEC §8, DESIGN §3)", () => {
  it("shows the contract's error field", async () => {
    expect(await errorText(Response.json({ error: "Organization signup is disabled" }, { status: 403 }), "Failed")).toBe("Organization signup is disabled");
  });

  it("shows the OpenAI-shaped error message", async () => {
    expect(await errorText(Response.json({ error: { message: "Model not found", type: "invalid_request_error" } }), "Failed")).toBe("Model not found");
  });

  it("shows a short plain-text body, else the default", async () => {
    expect(await errorText(new Response("Bad Gateway", { status: 502 }), "Failed to create organization")).toBe("Bad Gateway");
    expect(await errorText(new Response("<html>error</html>", { status: 500 }), "Failed to create organization")).toBe("Failed to create organization");
    expect(await errorText(new Response("", { status: 500 }), "Failed to join organization")).toBe("Failed to join organization");
    expect(await errorText(Response.json({ nope: 1 }, { status: 500 }), "Failed to join organization")).toBe("Failed to join organization");
  });
});
