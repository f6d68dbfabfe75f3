import type { AppLoadContext } from "@remix-run/node";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { loader } from "~/routes/_org.chat";

beforeAll(() => {
  process.env.SESSION_SECRET ??= "test-secret-test-secret-test-secret";
});

const SESSION = {
  valid: true,
  user: { id: 1, name: "Ada", email: "ada@example.test" },
  organizations: [{ id: 7, name: "Acme" }],
  activeOrganization: { id: 7, name: "Acme", hasPaymentMethod: false },
  activeRole: "member",
};
const model = (name: string) => ({ name, displayName: `Model ${name}`, provider: "fake", contextSize: 8192 });

/** A platform with `models` (in its order); the status and figures calls fail, as only logged (SPEC §8). */
function fakePlatform(models: string[]): AppLoadContext {
  return {
    clientAddress: "127.0.0.1",
    hostPrefixes: { app: "app", api: "api" },
    platformFetch: async (request: Request | { url: string }) => {
      const path = new URL(request.url).pathname.replace(/^\/api\/v1/, "");
      if (path === "/auth/session") return Response.json(SESSION);
      if (path === "/models") return Response.json({ data: models.map(model) });
      return Response.json({ error: "Internal error" }, { status: 500 });
    },
  } as unknown as AppLoadContext;
}

async function initialModel(models: string[], query: string) {
  const quiet = vi.spyOn(console, "warn").mockImplementation(() => {});
  try {
    const data = await loader({ request: new Request(`http://console.test/chat${query}`), context: fakePlatform(models), params: {} });
    return data.initialModel;
  } finally {
    quiet.mockRestore();
  }
}

describe("/chat's model on arrival (SPEC §2)", () => {
  it.each([
    { when: "names a known model", query: "?model=second", selected: "second" },
    { when: "names no known model", query: "?model=no-such-model", selected: "first" },
    { when: "is absent", query: "", selected: "first" },
    { when: "is empty", query: "?model=", selected: "first" },
  ])("when the model query parameter $when, selects $selected", async ({ query, selected }) => {
    expect(await initialModel(["first", "second", "third"], query)).toBe(selected);
  });

  it("selects nothing when there are no models", async () => {
    expect(await initialModel([], "?model=anything")).toBeNull();
  });
});
