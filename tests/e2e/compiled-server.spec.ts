import { startServer } from "./support/server";
import { expect, test } from "./support/test";

test("the compiled server started without NODE_ENV serves the production app, with its security policy", async () => {
  const server = await startServer({ NODE_ENV: "" }, 61);
  try {
    const response = await fetch(`${server.baseURL}/login`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-security-policy")).toContain("default-src 'self'");
    expect(await response.text()).not.toContain("/@vite/client");
  } finally {
    server.stop();
  }
});
