import type { AppLoadContext } from "@remix-run/node";
import { PassThrough } from "node:stream";
import type { ReactNode } from "react";
import { renderToPipeableStream } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import { routeData, routeElement, setUpRoutePages } from "~/lib/route-page.testing";

/** /models as a whole: its loader against a fake platform, its page streamed as the server streams it. */
vi.mock("@remix-run/react", async () => (await import("~/lib/route-page.testing")).remixReadingRouteData());

const { loader, default: ModelsPage } = await import("~/routes/_org.models");

setUpRoutePages();

const SESSION = {
  valid: true,
  user: { id: 1, name: "Ada", email: "ada@example.test" },
  organizations: [{ id: 7, name: "Acme" }],
  activeOrganization: { id: 7, name: "Acme", hasPaymentMethod: false },
  activeRole: "member",
};
const BUILTIN = { name: "builtin", displayName: "Built-in development model", provider: "builtin", contextSize: 8192 };

/** "unreachable": the call throws, as a refused connection does; otherwise a body answered with 200. */
type Answer = { body: unknown } | "unreachable";

function fakePlatform(models: Answer): AppLoadContext {
  return {
    clientAddress: "127.0.0.1",
    platformFetch: async (request: Request | { url: string; method: string }) => {
      const path = new URL(request.url).pathname.replace(/^\/api\/v1/, "");
      const answer: Answer = path === "/auth/session" ? { body: SESSION } : path === "/models" ? models : "unreachable";
      if (answer === "unreachable") throw new Error("connect ECONNREFUSED");
      return Response.json(answer.body);
    },
  } as unknown as AppLoadContext;
}

/** The page once every streamed part has arrived (`allReady`), or its first part only (the shell). */
async function stream(content: ReactNode, until: "shell" | "allReady"): Promise<string> {
  const element = await routeElement("/models", content);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const sink = new PassThrough();
    sink.on("data", (chunk: Buffer) => chunks.push(chunk));
    const { pipe, abort } = renderToPipeableStream(element, {
      [until === "shell" ? "onShellReady" : "onAllReady"]: () => {
        pipe(sink);
        // The shell is what comes before the table: enough of the stream for the skeleton.
        if (until === "shell")
          setImmediate(() => {
            resolve(Buffer.concat(chunks).toString());
            abort();
          });
      },
      onShellError: reject,
      onError: () => {},
    });
    sink.on("end", () => resolve(Buffer.concat(chunks).toString()));
  });
}

async function loaded(models: Answer) {
  const quiet = [vi.spyOn(console, "error").mockImplementation(() => {}), vi.spyOn(console, "warn").mockImplementation(() => {})];
  try {
    routeData.loader = await loader({ request: new Request("http://console.test/models"), context: fakePlatform(models), params: {} });
    await (routeData.loader as { table: Promise<unknown> }).table;
    return await stream(<ModelsPage />, "allReady");
  } finally {
    for (const spy of quiet) spy.mockRestore();
  }
}

describe("/models", () => {
  it("shows 5 skeleton rows while the table loads (SPEC §9)", async () => {
    routeData.loader = { table: new Promise(() => {}) };
    const html = await stream(<ModelsPage />, "shell");
    expect(html.match(/data-testid="model-skeleton"/g)).toHaveLength(5);
  });

  it.each([
    ["unreachable", "unreachable" as const],
    ["answering a wrong shape", { body: { models: [BUILTIN] } }],
  ])("says 'Failed to load models' in an alert when the platform is %s (SPEC §8)", async (_, answer) => {
    const html = await loaded(answer);
    expect(html).toContain('<div role="alert" class="alert alert-error">Failed to load models</div>');
    expect(html).not.toContain("model-skeleton");
  });

  it("says 'No models available' when there are none (SPEC §2)", async () => {
    const html = await loaded({ body: { data: [] } });
    expect(html).toContain('<div role="status" class="py-8 text-center text-base-content/70">No models available</div>');
    expect(html).not.toContain("Failed to load models");
  });

  it("lists the models when there are some, with neither message", async () => {
    const html = await loaded({ body: { data: [BUILTIN] } });
    expect(html).toContain("Built-in development model");
    expect(html).not.toContain("No models available");
    expect(html).not.toContain("Failed to load models");
  });
});
