import { describe, expect, it } from "vitest";
import { apiSample, ENDPOINTS, SAMPLE_LANGUAGES, sampleChatModel } from "./api-samples";

const BASE = "https://console.example.com/openai";

describe("the /api-home samples", () => {
  it("chat with a model this install serves: builtin when there, else the first", () => {
    expect(sampleChatModel([{ name: "qwen" }, { name: "builtin" }])).toBe("builtin");
    expect(sampleChatModel([{ name: "qwen" }, { name: "llama" }])).toBe("qwen");
    expect(sampleChatModel([])).toBe("builtin");
  });

  it("post the chat sample to this install's /openai/v1/chat/completions with the chosen model", () => {
    for (const language of SAMPLE_LANGUAGES) {
      const code = apiSample("chat", language, BASE, "qwen");
      expect(code).toContain("https://console.example.com/openai/v1");
      expect(code).toContain("qwen");
      expect(code).not.toContain("llama-3.1-70b");
    }
    expect(apiSample("chat", "curl", BASE, "builtin")).toContain("curl https://console.example.com/openai/v1/chat/completions");
  });

  it("mark only the chat endpoint as served here", () => {
    expect(ENDPOINTS.filter((e) => e.servedHere).map((e) => e.id)).toEqual(["chat"]);
  });
});
