import { callRouteAction, callRouteLoader } from "@remix-run/server-runtime/dist/data.js";
import { describe, expect, it } from "vitest";

// Remix strips its own search parameters (`index`, `_routes`, `_data`) from the request a loader or
// action gets. It is patched (patches/, decision 0087's eleventh pass) to pass a request without them
// on as it is instead of rebuilding it twice per loader. What a loader or action sees must not change.
const url = "http://console.test";
// Neither function reads the load context; it only hands it on.
const loadContext = {} as Parameters<typeof callRouteLoader>[0]["loadContext"];

async function loaderSees(request: Request): Promise<Request> {
  let seen: Request | undefined;
  await callRouteLoader({
    loadContext,
    params: {},
    request,
    routeId: "routes/team",
    singleFetch: true,
    loader: (args: { request: Request }) => ((seen = args.request), null),
  });
  return seen!;
}

async function actionSees(request: Request): Promise<{ url: string; body: string }> {
  let seen: { url: string; body: string } | undefined;
  await callRouteAction({
    loadContext,
    params: {},
    request,
    routeId: "routes/team",
    singleFetch: true,
    action: async (args: { request: Request }) => ((seen = { url: args.request.url, body: await args.request.text() }), null),
  });
  return seen!;
}

describe("the request a loader or action gets", () => {
  it("has Remix's parameters taken out and the page's own kept", async () => {
    expect((await loaderSees(new Request(`${url}/team?index&tab=invites&_routes=root,routes/team`))).url).toBe(`${url}/team?tab=invites`);
    expect((await loaderSees(new Request(`${url}/?index=&q=a+b`))).url).toBe(`${url}/?q=a+b`);
    expect((await loaderSees(new Request(`${url}/usage?_routes=routes/usage`))).url).toBe(`${url}/usage`);
  });

  it("is the request itself when it has none of them, with its headers and signal", async () => {
    const controller = new AbortController();
    const request = new Request(`${url}/team?tab=invites`, { headers: { cookie: "s=1" }, signal: controller.signal });
    const seen = await loaderSees(request);
    expect(seen).toBe(request);
    expect(seen.url).toBe(`${url}/team?tab=invites`);
    expect(seen.headers.get("cookie")).toBe("s=1");
    controller.abort();
    expect(seen.signal.aborted).toBe(true);
  });

  it("carries a posted form to the action, with or without the index parameter", async () => {
    const post = (path: string) => new Request(`${url}${path}`, { method: "POST", body: new URLSearchParams({ intent: "invite", kind: "single-use" }) });
    expect(await actionSees(post("/team?index"))).toEqual({ url: `${url}/team`, body: "intent=invite&kind=single-use" });
    expect(await actionSees(post("/team"))).toEqual({ url: `${url}/team`, body: "intent=invite&kind=single-use" });
  });
});
