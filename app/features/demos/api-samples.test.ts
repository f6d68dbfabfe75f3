import { describe, expect, it } from "vitest";
import { chatSnippets } from "~/features/chat/hosts";
import { endpointSample, ENDPOINTS, SAMPLE_LANGUAGES, sampleChatModel } from "./api-samples";

const BASE = "https://console.example.com/openai";

describe("the /api-home samples", () => {
  it("chat with a model this install serves: builtin when there, else the first", () => {
    expect(sampleChatModel([{ name: "qwen" }, { name: "builtin" }])).toBe("builtin");
    expect(sampleChatModel([{ name: "qwen" }, { name: "llama" }])).toBe("qwen");
    expect(sampleChatModel([])).toBe("builtin");
  });

  it("show, for chat, /chat's API examples in every language: the same program for the same model", () => {
    const examples = chatSnippets("https://console.example.com/openai/v1", "qwen");
    for (const language of SAMPLE_LANGUAGES) {
      expect(endpointSample("chat", language, BASE, "qwen")).toBe(examples.find((s) => s.id === language)!.code);
      expect(endpointSample("chat", language, `${BASE}/`, "qwen")).toContain("https://console.example.com/openai/v1/chat/completions");
    }
    // Copied and run, the JavaScript prints the streamed answer (before, it ended at fetch and printed nothing).
    expect(endpointSample("chat", "javascript", BASE, "qwen")).toContain("for await (const bytes of response.body)");
    expect(endpointSample("chat", "curl", BASE, "builtin")).toContain("curl -N https://console.example.com/openai/v1/chat/completions");
  });

  it("address the image and audio samples to this install's /openai/v1 with a bearer {key}", () => {
    for (const language of SAMPLE_LANGUAGES)
      for (const id of ["images", "transcriptions"] as const) {
        const code = endpointSample(id, language, `${BASE}/`, "qwen");
        expect(code).toContain("https://console.example.com/openai/v1");
        expect(code).toContain("{key}");
        expect(code).not.toContain("qwen");
      }
  });

  it("mark only the chat endpoint as served here", () => {
    expect(ENDPOINTS.filter((e) => e.servedHere).map((e) => e.id)).toEqual(["chat"]);
  });
});
