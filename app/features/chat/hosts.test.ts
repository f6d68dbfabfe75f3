import { describe, expect, it } from "vitest";
import { apiBaseUrl, apiHost, chatSnippets, pythonLiteral } from "./hosts";

describe("the API host of the examples", () => {
  it("swaps the app host prefix for the API host prefix", () => {
    expect(apiHost("app.example.com", "app.", "api.")).toBe("api.example.com");
    expect(apiBaseUrl("https://console.example.com/chat?model=x", "console.", "api.")).toBe("https://api.example.com/openai/v1");
  });

  it("keeps the app host when no prefix is set or the host lacks it", () => {
    expect(apiHost("localhost:3000", "", "")).toBe("localhost:3000");
    expect(apiHost("other.example.com", "app.", "api.")).toBe("other.example.com");
    expect(apiBaseUrl("http://localhost:3000/chat", "", "")).toBe("http://localhost:3000/openai/v1");
  });
});

describe("the snippets", () => {
  const snippets = chatSnippets("https://api.example.com/openai/v1", "qwen-7b");

  it("come in cURL, JavaScript and Python, for the chat-completions path, the selected model and a {key} placeholder", () => {
    expect(snippets.map((s) => s.label)).toEqual(["cURL", "JavaScript", "Python"]);
    for (const s of snippets) {
      expect(s.code).toContain("https://api.example.com/openai/v1/chat/completions");
      expect(s.code).toContain("Bearer {key}");
      expect(s.code).toContain('"qwen-7b"');
    }
  });

  it("write JSON as Python literals", () => {
    expect(pythonLiteral({ a: true, b: [null, false, "x"], n: 1 })).toBe('{"a": True, "b": [None, False, "x"], "n": 1}');
  });
});
