import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * The fastest OpenAI-compatible upstream the bench can have: it answers at once, from bytes made in
 * advance, so what the bench measures is the path in front of it. Streamed replies carry a usage chunk.
 */
export interface BenchUpstream {
  url: string;
  close: () => Promise<void>;
}

const usage = { prompt_tokens: 9, completion_tokens: 6, total_tokens: 15 };
const json = Buffer.from(
  JSON.stringify({
    id: "chatcmpl-bench",
    object: "chat.completion",
    created: 1,
    model: "echo",
    choices: [{ index: 0, message: { role: "assistant", content: "Hello from the bench upstream." }, finish_reason: "stop" }],
    usage,
  }),
);
const chunk = (delta: Record<string, string>, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: "chatcmpl-bench", object: "chat.completion.chunk", created: 1, model: "echo", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
const sse = Buffer.from(
  [
    chunk({ role: "assistant", content: "" }),
    ...["Hello", " from", " the", " bench", " upstream."].map((content) => chunk({ content })),
    chunk({}, "stop"),
    `data: ${JSON.stringify({ id: "chatcmpl-bench", object: "chat.completion.chunk", created: 1, model: "echo", choices: [], usage })}\n\n`,
    "data: [DONE]\n\n",
  ].join(""),
);

export async function startBenchUpstream(port = 0): Promise<BenchUpstream> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (req.method === "GET" && req.url?.endsWith("/models")) {
        res.writeHead(200, { "content-type": "application/json" }).end('{"object":"list","data":[{"id":"echo","object":"model"}]}');
        return;
      }
      // Streamed when asked: a cheap look at the body is enough here.
      const stream = /"stream"\s*:\s*true/.test(Buffer.concat(chunks).toString());
      if (stream) res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" }).end(sse);
      else res.writeHead(200, { "content-type": "application/json", "content-length": json.length }).end(json);
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const { port: actual } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${actual}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
