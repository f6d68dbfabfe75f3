import { execFile } from "node:child_process";
import fs from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
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

describe("the snippets, run against a stream that breaks off", () => {
  /** A server that streams one piece of text, then the platform's in-stream error event. */
  async function brokenStream() {
    const server = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: "Hel" }, finish_reason: null }] })}\n\n`);
      res.end(`data: ${JSON.stringify({ error: { message: "The model broke off its answer.", type: "upstream_error" } })}\n\n`);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}/openai/v1`, close: () => server.close() };
  }

  for (const [id, command, file] of [
    ["javascript", process.execPath, "chat.mjs"],
    ["python", "python3", "chat.py"],
  ] as const) {
    it(`${id} prints the error's message instead of crashing on a chunk without choices`, async () => {
      const { base, close } = await brokenStream();
      try {
        const code = chatSnippets(base, "m").find((s) => s.id === id)!.code;
        const where = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "snippet-")), file);
        fs.writeFileSync(where, code);
        const run = await promisify(execFile)(command, [where]).then(
          () => ({ code: 0, stdout: "", stderr: "" }),
          (e: { code: number; stdout: string; stderr: string }) => e,
        );
        expect(run.code).toBe(1);
        expect(run.stdout).toContain("Hel");
        expect(run.stderr).toContain("Error: The model broke off its answer.");
        expect(run.stderr).not.toMatch(/TypeError|KeyError|Traceback/);
      } finally {
        close();
      }
    });
  }
});
