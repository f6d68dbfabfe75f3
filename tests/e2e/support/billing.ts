import { execFileSync } from "node:child_process";
import path from "node:path";
import type { Page } from "@playwright/test";
import { FAKE_STRIPE_JS } from "../../fakes/stripe-js";

/** The fake Stripe API of this run (started by global-setup on a fixed loopback port). */
export const STRIPE_FAKE_PORT = Number(process.env.STRIPE_FAKE_PORT ?? Number(process.env.E2E_PORT ?? 3100) + 50);
export const STRIPE_FAKE_URL = `http://127.0.0.1:${STRIPE_FAKE_PORT}`;
export const STRIPE_WEBHOOK_SECRET = "whsec_e2e_fake";

/** Serves the fake Stripe.js for https://js.stripe.com/** and sends its API calls to the fake Stripe API. */
export async function useFakeStripe(page: Page) {
  await page.route("https://js.stripe.com/**", (route) => route.fulfill({ status: 200, contentType: "application/javascript", body: FAKE_STRIPE_JS }));
  await page.route("https://api.stripe.com/**", async (route) => {
    const url = new URL(route.request().url());
    const response = await route.fetch({ url: `${STRIPE_FAKE_URL}${url.pathname}${url.search}` });
    await route.fulfill({ response, headers: { ...response.headers(), "access-control-allow-origin": "*" } });
  });
}

/** Stripe.js that cannot be had (the network blocks it). */
export async function blockStripeJs(page: Page) {
  await page.route("https://js.stripe.com/**", (route) => route.abort("connectionrefused"));
}

/** Adds a card through the dialog and the fake Payment Element; returns once the page has reloaded. */
export async function addCardThroughDialog(page: Page, cardNumber = "4242424242424242") {
  await page.goto("/billing");
  await page.getByRole("link", { name: "Set up payment method" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Card number").fill(cardNumber);
  await dialog.getByRole("button", { name: "Save payment method" }).click();
}

/** `npm run billing-mode` against the e2e server's database. */
export function setBillingMode(orgId: number, mode: "manual" | "auto" | "invoice") {
  execFileSync("npx", ["tsx", "scripts/billing-mode.ts", String(orgId), mode], {
    env: { ...process.env, DATABASE_PATH: path.join(process.env.E2E_DATA_DIR!, "console.db") },
    stdio: "pipe",
  });
}

/** A card saved through the platform API and the fake Stripe API, without the browser's card form. */
export async function addCardWithRequests(page: Page, cardNumber = "4242424242424242") {
  const setup = await page.request.post("/api/v1/billing/payment-method");
  if (!setup.ok()) throw new Error(`setup answered ${setup.status()}`);
  const { clientSecret } = (await setup.json()) as { clientSecret: string };
  const id = clientSecret.split("_secret_")[0];
  const confirmed = await page.request.post(`${STRIPE_FAKE_URL}/v1/setup_intents/${id}/confirm`, {
    form: { client_secret: clientSecret, "payment_method_data[card][number]": cardNumber },
  });
  if (!confirmed.ok()) throw new Error(`fake Stripe confirm answered ${confirmed.status()}`);
  const recorded = await page.request.post("/api/v1/billing/payment-method/confirm", { data: { setupIntentId: id } });
  if (!recorded.ok()) throw new Error(`recording the card answered ${recorded.status()}`);
}

/** `npm run grant-credit` against the e2e server's database. */
export function grantCreditWithCli(orgId: number, amount: string, reason: string): string {
  return execFileSync("npx", ["tsx", "scripts/grant-credit.ts", String(orgId), amount, reason], {
    env: { ...process.env, DATABASE_PATH: path.join(process.env.E2E_DATA_DIR!, "console.db") },
    stdio: "pipe",
  }).toString();
}

/**
 * Writes to the e2e server's database directly, for states a browser test can't reach quickly (a
 * sub-cent debit, a recharge refused at the daily limit). The platform tests make those for real.
 */
export async function writeDatabase(statements: { sql: string; params?: unknown[] }[]) {
  const { default: Database } = await import("better-sqlite3");
  const db = new Database(path.join(process.env.E2E_DATA_DIR!, "console.db"));
  db.pragma("busy_timeout = 5000");
  try {
    db.transaction(() => {
      for (const s of statements) db.prepare(s.sql).run(...(s.params ?? []));
    })();
  } finally {
    db.close();
  }
}
