import os from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";

const port = Number(process.env.E2E_PORT ?? 3100);
const baseURL = `http://localhost:${port}`;
// One fresh database per run; set here once so the test workers (which inherit env) see the same path.
process.env.E2E_DATA_DIR ??= path.join(os.tmpdir(), `console-e2e-${process.pid}-${Date.now()}`);
process.env.E2E_BASE_URL = baseURL;
// The fake Stripe API (tests/fakes/stripe.ts), started by global-setup on loopback beside the server.
process.env.STRIPE_FAKE_PORT ??= String(port + 50);

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: true,
  workers: process.env.CI ? 2 : 2,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"]] : [["list"]],
  globalSetup: "./tests/e2e/support/global-setup.ts",
  use: {
    baseURL,
    timezoneId: "UTC",
    locale: "en-GB",
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
  },
  projects: [{ name: "chromium", use: { browserName: "chromium" } }],
  webServer: {
    // The compiled server, as it ships (npm run build compiles it; npm run serve runs it).
    command: "npm run build && node build/app/server.js",
    url: `${baseURL}/healthz`,
    timeout: 240_000,
    reuseExistingServer: false,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      NODE_ENV: "production",
      PORT: String(port),
      DATABASE_PATH: path.join(process.env.E2E_DATA_DIR, "console.db"),
      LOG_REQUESTS: "false",
      STRIPE_SECRET_KEY: "sk_test_e2e_fake",
      STRIPE_PUBLISHABLE_KEY: "pk_test_e2e_fake",
      STRIPE_WEBHOOK_SECRET: "whsec_e2e_fake",
      STRIPE_API_HOST: "127.0.0.1",
      STRIPE_API_PORT: process.env.STRIPE_FAKE_PORT,
      STRIPE_API_PROTOCOL: "http",
    },
  },
});
