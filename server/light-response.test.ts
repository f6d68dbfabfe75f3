import { getRequestListener } from "@hono/node-server";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";

// The platform's answers are Hono's light Responses (@hono/node-server makes them the global Response).
// It is patched (patches/, decision 0087's sixth pass): a string body read in-process, as the console
// reads every platform answer, is handed over without a web stream. It must still read as a body reads.
getRequestListener(() => new Response(""));
const app = new Hono()
  .get("/json", (c) => c.json({ balance: 12.5, note: '€ and "quotes"' }, 201, { "x-kept": "yes" }))
  .get("/text", (c) => c.text("plain"))
  .get("/stream", (c) => c.body(new Blob(["from a blob"]).stream()))
  .get("/broken", (c) => c.body("{not json", 200, { "content-type": "application/json" }));
const call = (path: string) => app.fetch(new Request(`http://platform.test${path}`));

describe("in-process answers", () => {
  it("read as JSON or text, once, with their status and headers", async () => {
    const json = await call("/json");
    expect(json.status).toBe(201);
    expect(json.headers.get("x-kept")).toBe("yes");
    expect(json.bodyUsed).toBe(false);
    expect(await json.json()).toEqual({ balance: 12.5, note: '€ and "quotes"' });
    expect(json.bodyUsed).toBe(true);
    await expect(json.text()).rejects.toThrow(TypeError);
    expect(() => json.clone()).toThrow(TypeError);
    expect(json.ok).toBe(true);
    expect(json.headers.get("content-type")).toContain("application/json");

    const text = await call("/text");
    expect(await text.text()).toBe("plain");
    await expect(text.json()).rejects.toThrow(TypeError);
  });

  it("refuses a body that is not JSON as a global Response does", async () => {
    await expect((await call("/broken")).json()).rejects.toThrow(SyntaxError);
  });

  it("read other bodies, and bodies read some other way, as before", async () => {
    expect(await (await call("/stream")).text()).toBe("from a blob");
    const bytes = await (await call("/json")).arrayBuffer();
    expect(JSON.parse(new TextDecoder().decode(bytes))).toMatchObject({ balance: 12.5 });
    const cloned = (await call("/text")).clone();
    expect(await cloned.text()).toBe("plain");
    const streamed = await call("/text");
    expect(await new Response(streamed.body).text()).toBe("plain");
  });
});
