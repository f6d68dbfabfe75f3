import type { CreatedApiToken } from "@contract/tokens";
import type { TokenSpend } from "@contract/usage";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { countTokens } from "gpt-tokenizer";
import { creditPayment } from "../../platform/billing/ledger";
import { saveModel } from "../../platform/models/service";
import { sweepExpiredReservations } from "../../platform/chat/expired-holds";
import { reserve, settleWithin, DEFAULT_RESERVATION_TTL_MS } from "../../platform/spend/reservations";
import type { FakeUpstream } from "../fakes/openai-upstream";
import { FAKE_ANSWER_PIECES, FAKE_USAGE, LIMIT_PROMPT_TOKENS, startFakeUpstream } from "../fakes/openai-upstream";
import type { Harness } from "./harness";
import { createHarness } from "./harness";
import { saveFakeModels } from "./fake-models";

/**
 * Spend control (issue 11, decision 0084): concurrent requests never spend more than the balance, the
 * organization's monthly cap or a token's budget allow, and the ledger is charged exactly what was
 * delivered. Runs on SQLite, and on PostgreSQL with TEST_DATABASE_URL.
 */
let fake: FakeUpstream;
let h: Harness;
let clock = Date.now();

beforeAll(async () => {
  fake = await startFakeUpstream();
});
afterAll(() => fake.close());
afterEach(() => h?.close());

/** $1 per million input tokens and $100 per million output tokens: one micro-dollar and 100 a token. */
const INPUT = 1;
const OUTPUT = 100;

let payments = 0;
async function setup(balance = 10) {
  clock = Date.now();
  h = await createHarness({}, () => clock);
  await saveFakeModels(h.deps, fake.url, ["to-the-limit", "echo", "streams-anyway", "hang", "long", "tool-call"], {
    inputPerMillion: INPUT,
    outputPerMillion: OUTPUT,
  });
  const admin = await h.admin();
  if (balance > 0) {
    payments += 1;
    await creditPayment(h.deps, {
      orgId: admin.orgId,
      paymentIntentId: `pi_spend_${payments}_${Math.random()}`,
      amountMicros: balance * 1e6,
      description: "Test funds",
    });
  }
  return admin;
}

const ask = (model: string, extra: Record<string, unknown> = {}) => ({ model, messages: [{ role: "user", content: "Say hello" }], stream: true, ...extra });

async function account(orgId: number) {
  return h.deps.db.selectFrom("billing_accounts").selectAll().where("org_id", "=", orgId).executeTakeFirstOrThrow();
}

/** Waits until no reservation is open (every stream's settlement has run). */
async function settled() {
  await expect
    .poll(
      async () =>
        Number(
          (
            await h.deps.db
              .selectFrom("spend_reservations")
              .select((eb) => eb.fn.countAll().as("n"))
              .executeTakeFirstOrThrow()
          ).n,
        ),
      {
        timeout: 10_000,
      },
    )
    .toBe(0);
}

/** What the ledger debited for usage, what the receipts say, in micro-dollars. */
async function charged(orgId: number) {
  const ledger = await h.deps.db
    .selectFrom("ledger_entries")
    .select((eb) => eb.fn.sum<number>("change_micros").as("sum"))
    .where("org_id", "=", orgId)
    .where("model", "is not", null)
    .executeTakeFirstOrThrow();
  const receipts = await h.deps.db
    .selectFrom("chat_usage")
    .select((eb) => [eb.fn.sum<number>("cost_micros").as("sum"), eb.fn.countAll<number>().as("n")])
    .where("org_id", "=", orgId)
    .executeTakeFirstOrThrow();
  return { ledger: -Number(ledger.sum ?? 0) || 0, receipts: Number(receipts.sum ?? 0), count: Number(receipts.n) };
}

async function token(admin: Awaited<ReturnType<typeof setup>>, settings: Record<string, unknown> = {}) {
  const created = await admin.call("POST", "/tokens", { scopes: ["chat", "models:read"], expiresAt: null, ...settings });
  expect(created.status).toBe(201);
  return (await created.json()) as CreatedApiToken;
}

const viaToken = (secret: string, body: unknown, signal?: AbortSignal) =>
  h.fetch("/openai/v1/chat/completions", { method: "POST", json: body, headers: { authorization: `Bearer ${secret}` }, signal });

/** Sends them all at once, reads every answer to its end; the statuses and the 402 messages. */
async function all(requests: (() => Promise<Response>)[]) {
  return Promise.all(
    requests.map(async (send) => {
      const response = await send();
      const text = await response.text();
      return { status: response.status, message: response.status === 200 ? null : (JSON.parse(text) as { error: { message: string } }).error.message };
    }),
  );
}

describe("admission by reservation", () => {
  it("holds room for an upstream that counts the prompt higher than the platform does, so a burst cannot overshoot", async () => {
    // The platform counts "hi" as 8 prompt tokens; the fake's `to-the-limit` reports 10. With the prompt
    // dear ($1,000 per million) and the count alone held, 30 at once against $0.09 took the balance below zero.
    const admin = await setup(0);
    await saveModel(h.deps, {
      name: "fake-prompty",
      displayName: "Fake prompty",
      provider: "vllm",
      contextSize: 32768,
      baseUrl: fake.url,
      upstreamModel: "to-the-limit",
      rateCard: { id: "rc-prompty", inputPerMillion: 1000, outputPerMillion: 100 },
    });
    await creditPayment(h.deps, { orgId: admin.orgId, paymentIntentId: `pi_prompty_${Math.random()}`, amountMicros: 90_000, description: "Test funds" });
    const hi = { model: "fake-prompty", messages: [{ role: "user", content: "hi" }], max_tokens: 10, stream: false };
    const answers = await all(Array.from({ length: 30 }, () => () => admin.call("POST", "/chat/completions", hi)));
    await settled();
    expect(answers.some((a) => a.status === 200)).toBe(true);
    expect(answers.some((a) => a.status === 402)).toBe(true);
    expect((await account(admin.orgId)).balance_micros).toBeGreaterThanOrEqual(0);
  });

  it("holds what tools, response formats and images add to the prompt, and the output cap asked (max_completion_tokens first); refuses n other than 1 (decisions 0100, 0138)", async () => {
    const admin = await setup(0);
    await creditPayment(h.deps, { orgId: admin.orgId, paymentIntentId: `pi_one_${Math.random()}`, amountMicros: 1, description: "Test funds" });
    /** The worst case the refusal names, in micro-dollars ($1 per million input tokens: one a token). */
    const worstCase = async (extra: Record<string, unknown>) => {
      const refused = await admin.call("POST", "/chat/completions", { ...ask("fake-echo"), max_tokens: 1, ...extra });
      expect(refused.status).toBe(402);
      return Math.round(Number(/may cost up to \$([\d.]+)/.exec((await refused.json()).error.message)![1]) * 1e6);
    };
    const plain = await worstCase({});
    const parameters = {
      type: "object",
      properties: Object.fromEntries(
        Array.from({ length: 40 }, (_, i) => [`field_${i}`, { type: "string", description: `The value number ${i} of the form` }]),
      ),
    };
    const tools = [{ type: "function", function: { name: "fill_form", description: "Fills the form", parameters } }];
    expect(await worstCase({ tools })).toBeGreaterThan(plain + 400 * 1.25);
    expect(await worstCase({ response_format: { type: "json_schema", json_schema: { name: "form", schema: parameters } } })).toBeGreaterThan(
      plain + 300 * 1.25,
    );
    const image = {
      role: "user",
      content: [
        { type: "text", text: "Say hello" },
        { type: "image_url", image_url: { url: "https://example.test/a.png" } },
      ],
    };
    expect(await worstCase({ messages: [image] })).toBeGreaterThanOrEqual(plain + 1_500);
    // max_completion_tokens is the cap when both are sent (OpenAI's current field; vLLM and SGLang read
    // it first), and the upstream is told it in both (decision 0138): it is what is held.
    expect(await worstCase({ max_completion_tokens: 1_000 })).toBe(plain + 999 * OUTPUT);
    expect(await worstCase({ max_tokens: 1, max_completion_tokens: 1_000 })).toBe(plain + 999 * OUTPUT);
    expect(await worstCase({ max_tokens: 1_000, max_completion_tokens: 1 })).toBe(plain);

    for (const n of [2, 0]) {
      const many = await admin.call("POST", "/chat/completions", { ...ask("fake-echo"), n });
      expect(many.status).toBe(400);
      expect((await many.json()).error.message).toMatch(/^n: only 1 is supported/);
    }
  });

  it("refuses what would make the provider charge past the rate card or keep the conversation, before forwarding it (decision 0125)", async () => {
    const admin = await setup();
    const before = fake.requests.length;
    const refused: [Record<string, unknown>, string, RegExp][] = [
      [{ service_tier: "priority" }, "service_tier", /^service_tier: only "auto", "default" and "flex" are offered/],
      [{ service_tier: "scale" }, "service_tier", /^service_tier: only "auto", "default" and "flex" are offered/],
      [{ modalities: ["text", "audio"] }, "modalities", /^modalities: only "text" is offered/],
      [{ audio: { voice: "alloy", format: "mp3" } }, "audio", /^audio: audio output is not offered/],
      [{ web_search_options: {} }, "web_search_options", /^web_search_options: web search is not offered/],
      [{ store: true }, "store", /^store: completions are not stored with the provider/],
    ];
    for (const [extra, param, message] of refused) {
      const answer = await admin.call("POST", "/chat/completions", ask("fake-echo", extra));
      expect(answer.status).toBe(400);
      const { error } = await answer.json();
      expect(error).toMatchObject({ type: "invalid_request_error", param });
      expect(error.message).toMatch(message);
    }
    expect(fake.requests.length).toBe(before);
    expect((await account(admin.orgId)).reserved_micros).toBe(0);

    // What costs no more is passed on as sent.
    const allowed = { service_tier: "flex", modalities: ["text"], store: false, audio: null, web_search_options: null };
    const answer = await admin.call("POST", "/chat/completions", ask("fake-echo", { ...allowed, stream: false }));
    expect(answer.status).toBe(200);
    expect(fake.requests.at(-1)?.body).toMatchObject(allowed);
  });

  it("serves 200 concurrent priced completions against $10 without going below zero, charging exactly what was delivered", async () => {
    const admin = await setup(10);
    // Each request may cost 10 + 1000 × 100 micro-dollars ($0.10001), and does: the fake generates to the limit.
    const answers = await all(Array.from({ length: 200 }, () => () => admin.call("POST", "/chat/completions", ask("fake-to-the-limit", { max_tokens: 1000 }))));
    await settled();
    const served = answers.filter((a) => a.status === 200).length;
    const refused = answers.filter((a) => a.status === 402);
    expect(served + refused.length).toBe(200);
    expect(served).toBeGreaterThan(0);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0].message).toMatch(/^Insufficient balance: this request may cost up to \$0\.10\d*, \$[\d.]+ is available/);

    const after = await account(admin.orgId);
    expect(after.balance_micros).toBeGreaterThanOrEqual(0);
    expect(after.reserved_micros).toBe(0);
    const { ledger, receipts, count } = await charged(admin.orgId);
    expect(count).toBe(served);
    expect(ledger).toBe(receipts);
    expect(ledger).toBe(10e6 - after.balance_micros);
    expect(receipts).toBe(served * (LIMIT_PROMPT_TOKENS * INPUT + 1000 * OUTPUT));
    expect(after.month_spent_micros).toBe(ledger);
  }, 60_000);

  it("holds a token to its $0.10 budget under 20 concurrent calls, and counts what it spent", async () => {
    const admin = await setup(10);
    const limited = await token(admin, { budget: { amount: 0.1, period: "total" } });
    // Each may cost 10 + 200 × 100 micro-dollars ($0.02001): four fit in $0.10, a fifth does not.
    const answers = await all(Array.from({ length: 20 }, () => () => viaToken(limited.token, ask("fake-to-the-limit", { max_tokens: 200 }))));
    await settled();
    const served = answers.filter((a) => a.status === 200).length;
    const refused = answers.filter((a) => a.status === 402);
    expect(served).toBe(4);
    expect(refused).toHaveLength(16);
    expect(refused[0].message).toMatch(
      /^Token budget exceeded: this request may cost up to \$0\.0200\d+, and this API token has used \$0\.0[\d]+ of its \$0\.10 budget/,
    );

    const row = await h.deps.db.selectFrom("api_tokens").selectAll().where("public_id", "=", limited.publicId).executeTakeFirstOrThrow();
    const { ledger } = await charged(admin.orgId);
    expect(row.spent_micros).toBe(ledger);
    expect(row.spent_micros).toBeLessThanOrEqual(100_000);
    expect(row.reserved_micros).toBe(0);
    const listed = ((await (await admin.call("GET", "/tokens")).json()) as { publicId: string; budget: unknown }[]).find(
      (t) => t.publicId === limited.publicId,
    );
    expect(listed?.budget).toEqual({ amount: 0.1, period: "total", spent: ledger / 1e6 });
  }, 60_000);

  it("holds the organization to its monthly cap under 20 concurrent requests", async () => {
    const admin = await setup(10);
    const set = await admin.call("POST", "/billing/spend-cap", { monthlyCap: 0.25 });
    expect(set.status).toBe(200);
    expect(await set.json()).toEqual({ monthlyCap: 0.25, spentThisMonth: 0, reserved: 0 });
    const answers = await all(Array.from({ length: 20 }, () => () => admin.call("POST", "/chat/completions", ask("fake-to-the-limit", { max_tokens: 200 }))));
    await settled();
    const served = answers.filter((a) => a.status === 200).length;
    const refused = answers.filter((a) => a.status === 402);
    expect(served).toBe(12);
    expect(refused[0].message).toMatch(
      /^Monthly spend cap reached: this request may cost up to \$0\.0200\d+, and the organization has used \$0\.2\d+ of its \$0\.25 cap this month \(UTC\)\.$/,
    );
    const state = await (await admin.call("GET", "/billing/spend-cap")).json();
    expect(state.spentThisMonth).toBeLessThanOrEqual(0.25);
    expect(state.spentThisMonth).toBeCloseTo((await charged(admin.orgId)).ledger / 1e6, 9);
    // Only admins set it, with a strict amount; null removes it.
    expect((await admin.call("POST", "/billing/spend-cap", { monthlyCap: "10" })).status).toBe(400);
    expect((await admin.call("POST", "/billing/spend-cap", { monthlyCap: 10.001 })).status).toBe(400);
    expect(await (await admin.call("POST", "/billing/spend-cap", { monthlyCap: null })).json()).toMatchObject({ monthlyCap: null });
  }, 60_000);

  it("keeps the new month's spend when a settlement of last month lands after midnight (a retry, a lock wait)", async () => {
    const admin = await setup(100);
    await admin.call("POST", "/billing/spend-cap", { monthlyCap: 10 });
    const lastDay = Date.UTC(2027, 0, 31, 23, 59, 50);
    const firstDay = Date.UTC(2027, 1, 1, 0, 0, 5);
    const complete = (receiptId: string, at: number, costMicros: number) =>
      h.deps.db.transaction().execute((trx) => settleWithin(trx, at, { orgId: admin.orgId, tokenId: null, receiptId, costMicros }));
    clock = lastDay;
    await reserve(h.deps, { orgId: admin.orgId, tokenId: null, receiptId: "rcpt_late", amountMicros: 1_000_000 });
    clock = firstDay;
    await reserve(h.deps, { orgId: admin.orgId, tokenId: null, receiptId: "rcpt_february", amountMicros: 9_000_000 });
    await complete("rcpt_february", firstDay, 9_000_000);
    // January's completion, written late: it belongs to January, and February has still spent $9.
    await complete("rcpt_late", lastDay + 9_000, 1_000_000);
    expect(await account(admin.orgId)).toMatchObject({ month_key: "2027-02", month_spent_micros: 9_000_000, reserved_micros: 0 });
    await expect(reserve(h.deps, { orgId: admin.orgId, tokenId: null, receiptId: "rcpt_over", amountMicros: 5_000_000 })).rejects.toThrow(
      /^Monthly spend cap reached/,
    );
    // A hold dated last month (a replica whose clock is behind) neither moves the month back nor escapes the cap.
    clock = lastDay;
    await expect(reserve(h.deps, { orgId: admin.orgId, tokenId: null, receiptId: "rcpt_behind", amountMicros: 5_000_000 })).rejects.toThrow(
      /^Monthly spend cap reached/,
    );
    await reserve(h.deps, { orgId: admin.orgId, tokenId: null, receiptId: "rcpt_small", amountMicros: 500_000 });
    expect(await account(admin.orgId)).toMatchObject({ month_key: "2027-02", month_spent_micros: 9_000_000 });
  });

  it("releases a reservation left by a crashed process once it expires, and never charges twice", async () => {
    const admin = await setup(10);
    await reserve(h.deps, { orgId: admin.orgId, tokenId: null, receiptId: "rcpt_crashed", amountMicros: 2_000_000 });
    expect((await account(admin.orgId)).reserved_micros).toBe(2_000_000);
    expect(await sweepExpiredReservations(h.deps)).toBe(0);

    // A completed request settles its own reservation; the sweeper finds nothing of it later.
    const response = await admin.call("POST", "/chat/completions", ask("fake-echo"));
    await response.text();
    await expect.poll(async () => (await account(admin.orgId)).reserved_micros).toBe(2_000_000);
    const before = await account(admin.orgId);

    clock += DEFAULT_RESERVATION_TTL_MS + 1;
    expect(await sweepExpiredReservations(h.deps)).toBe(1);
    expect(await sweepExpiredReservations(h.deps)).toBe(0);
    const after = await account(admin.orgId);
    expect(after.reserved_micros).toBe(0);
    expect(after.balance_micros).toBe(before.balance_micros);
    const { ledger } = await charged(admin.orgId);
    expect(ledger).toBe(10e6 - after.balance_micros);
  });

  it("finishes at start, before expiry, the holds a dead process left when it is the database's only process", async () => {
    const admin = await setup(10);
    await reserve(h.deps, { orgId: admin.orgId, tokenId: null, receiptId: "rcpt_before_the_crash", amountMicros: 2_000_000 });
    const started = (clock += 1_000);
    await reserve(h.deps, { orgId: admin.orgId, tokenId: null, receiptId: "rcpt_after_the_start", amountMicros: 3_000_000 });
    expect((await account(admin.orgId)).reserved_micros).toBe(5_000_000);

    // Another process may still be running (PostgreSQL): nothing has expired, nothing is finished.
    expect(await sweepExpiredReservations(h.deps)).toBe(0);
    // This process alone (a locked SQLite file): the hold made before it started is a dead one's.
    expect(await sweepExpiredReservations(h.deps, started)).toBe(1);
    expect(await sweepExpiredReservations(h.deps, started)).toBe(0);
    const after = await account(admin.orgId);
    expect(after.reserved_micros).toBe(3_000_000);
    expect(after.balance_micros).toBe(10e6);
  });

  it("skips free models entirely: nothing held, nothing charged, even with no balance", async () => {
    const admin = await setup(0);
    const response = await admin.call("POST", "/chat/completions", ask("builtin"));
    expect(response.status).toBe(200);
    await response.text();
    expect((await account(admin.orgId)).reserved_micros).toBe(0);
    await expect.poll(async () => (await charged(admin.orgId)).count).toBe(1);
    expect((await charged(admin.orgId)).ledger).toBe(0);
  });
});

describe("token settings", () => {
  it("refuses a model outside a token's allow-list with 403 naming the allowed ones", async () => {
    const admin = await setup(10);
    const narrow = await token(admin, { allowedModels: ["fake-echo", "builtin"] });
    const refused = await viaToken(narrow.token, ask("fake-long"));
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({
      error: { message: "This API token may only call: fake-echo, builtin", type: "permission_error", param: "model", code: null },
    });
    const served = await viaToken(narrow.token, ask("fake-echo"));
    expect(served.status).toBe(200);
    await served.text();
    await settled();
  });

  it("lets admins set, change and clear a budget, an allow-list and a request rate; members and strangers may not", async () => {
    const { admin, member, outsider } = await (async () => {
      await setup(0);
      return h.team();
    })();
    const created = (await (await admin.call("POST", "/tokens", { scopes: ["chat"], expiresAt: null })).json()) as CreatedApiToken;
    expect(created).toMatchObject({ budget: null, allowedModels: null, rateLimitRpm: null });
    const settings = { budget: { amount: 12.5, period: "month" }, allowedModels: ["fake-echo"], rateLimitRpm: 60 };
    const updated = await admin.call("PUT", `/tokens/${created.publicId}`, settings);
    expect(updated.status).toBe(200);
    expect(await updated.json()).toMatchObject({ budget: { amount: 12.5, period: "month", spent: 0 }, allowedModels: ["fake-echo"], rateLimitRpm: 60 });
    const listed = ((await (await member.call("GET", "/tokens")).json()) as { publicId: string }[]).find((t) => t.publicId === created.publicId);
    expect(listed).toMatchObject({ budget: { amount: 12.5, period: "month" }, allowedModels: ["fake-echo"], rateLimitRpm: 60 });

    expect((await member.call("PUT", `/tokens/${created.publicId}`, settings)).status).toBe(403);
    expect((await outsider.call("PUT", `/tokens/${created.publicId}`, settings)).status).toBe(404);
    for (const amount of ["10", 10.001, 0, -1, true, [5]]) {
      const bad = await admin.call("PUT", `/tokens/${created.publicId}`, { ...settings, budget: { amount, period: "total" } });
      expect(bad.status).toBe(400);
      expect((await bad.json()).fields).toHaveProperty(["budget.amount"]);
    }
    expect((await admin.call("PUT", `/tokens/${created.publicId}`, { ...settings, rateLimitRpm: 1.5 })).status).toBe(400);
    const cleared = await admin.call("PUT", `/tokens/${created.publicId}`, { budget: null, allowedModels: null, rateLimitRpm: null });
    expect(await cleared.json()).toMatchObject({ budget: null, allowedModels: null, rateLimitRpm: null });
  });

  it("refuses settings for a revoked or expired token (409), as the page offers them for active tokens only", async () => {
    const admin = await setup(0);
    const revoked = (await (await admin.call("POST", "/tokens", { scopes: ["chat"], expiresAt: null })).json()) as CreatedApiToken;
    expect((await admin.call("DELETE", `/tokens/${revoked.publicId}`)).status).toBe(200);
    const settings = { budget: null, allowedModels: ["fake-echo"], rateLimitRpm: null };
    const refused = await admin.call("PUT", `/tokens/${revoked.publicId}`, settings);
    expect(refused.status).toBe(409);
    expect((await refused.json()).error).toBe("This token is revoked");

    const expiring = (await (await admin.call("POST", "/tokens", { scopes: ["chat"], expiresAt: clock + 60_000 })).json()) as CreatedApiToken;
    expect((await admin.call("PUT", `/tokens/${expiring.publicId}`, settings)).status).toBe(200);
    clock += 60_000;
    const expired = await admin.call("PUT", `/tokens/${expiring.publicId}`, settings);
    expect(expired.status).toBe(409);
    expect((await expired.json()).error).toBe("This token has expired");
  });
});

describe("GET /usage/token-spend", () => {
  it("answers what each token spent this UTC month, exactly its metered usage of the month, for every member", async () => {
    const admin = await setup(10);
    const member = await h.signIn("Mia Member", "mia@example.test");
    await h.join(admin, member);
    const [a, b] = [await token(admin), await token(admin)];
    const json = (secret: string) => viaToken(secret, ask("fake-echo", { stream: false })).then((r) => (expect(r.status).toBe(200), r.text()));

    const today = new Date(clock);
    const monthStart = Date.UTC(today.getUTCFullYear(), today.getUTCMonth() + 1, 1);
    clock = monthStart - 60_000;
    await json(b.token); // last month's: not this month's
    clock = monthStart + 60_000;
    await json(a.token);
    await json(a.token);
    await json(b.token);
    await admin.call("POST", "/chat/completions", ask("fake-echo", { stream: false })).then((r) => r.text()); // a console chat: no token's

    const response = await member.call("GET", "/usage/token-spend");
    expect(response.status).toBe(200);
    const spend: TokenSpend = await response.json();
    expect(spend.month).toBe(new Date(monthStart).toISOString().slice(0, 7));
    const metered = async (tokenPublicId: string) => {
      const row = await h.deps.db
        .selectFrom("chat_usage")
        .innerJoin("api_tokens", "api_tokens.id", "chat_usage.token_id")
        .select((eb) => eb.fn.sum<number>("cost_micros").as("micros"))
        .where("api_tokens.public_id", "=", tokenPublicId)
        .where("chat_usage.created_at", ">=", monthStart)
        .executeTakeFirstOrThrow();
      return Number(row.micros) / 1e6;
    };
    const byToken = Object.fromEntries(spend.tokens.map((t) => [t.token, t.spent]));
    expect(byToken[a.publicId]).toBeGreaterThan(0);
    expect(byToken[a.publicId]).toBeCloseTo(await metered(a.publicId), 6);
    expect(byToken[b.publicId]).toBeCloseTo(await metered(b.publicId), 6);
    expect(byToken[a.publicId]).toBeCloseTo(2 * byToken[b.publicId], 6);
  });
});

describe("metering at the edges", () => {
  it("bills stream:false fully when the upstream streams anyway, and answers one JSON completion", async () => {
    const admin = await setup(10);
    const response = await admin.call("POST", "/chat/completions", ask("fake-streams-anyway", { stream: false }));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/json");
    const body = await response.json();
    expect(body).toMatchObject({
      object: "chat.completion",
      model: "fake-streams-anyway",
      choices: [{ index: 0, message: { role: "assistant", content: FAKE_ANSWER_PIECES.join("") }, finish_reason: "stop" }],
      usage: { completion_tokens: FAKE_USAGE.completion_tokens },
    });
    await settled();
    const { ledger } = await charged(admin.orgId);
    expect(ledger).toBe(FAKE_USAGE.prompt_tokens * INPUT + FAKE_USAGE.completion_tokens * OUTPUT);
  });

  it("refuses a request over MAX_REQUEST_CHARS with 413 before forwarding it", async () => {
    const admin = await setup(10);
    const sent = fake.requests.length;
    const response = await admin.call("POST", "/chat/completions", { model: "fake-echo", messages: [{ role: "user", content: "x".repeat(1_000_001) }] });
    expect(response.status).toBe(413);
    expect((await response.json()).error.message).toContain("at most 1,000,000 characters");
    expect(fake.requests.length).toBe(sent);
    expect((await account(admin.orgId)).reserved_micros).toBe(0);
  });

  it("counts the tool calls an earlier turn made as prompt: in the size limit, the hold and the estimate", async () => {
    const admin = await setup(10);
    const withCall = (args: string) => ({
      model: "fake-tool-call",
      stream: true,
      messages: [
        { role: "user", content: "Weather in Paris?" },
        // No content: an assistant turn that only called a tool (OpenAI's clients may leave it out).
        { role: "assistant", tool_calls: [{ id: "call_1", type: "function", function: { name: "get_weather", arguments: args } }] },
        { role: "tool", tool_call_id: "call_1", content: "Sunny" },
      ],
    });
    const sent = fake.requests.length;
    const tooLarge = await admin.call("POST", "/chat/completions", withCall("x".repeat(1_000_001)));
    expect(tooLarge.status).toBe(413);
    expect(fake.requests.length).toBe(sent);

    // The fake sends no usage for this model: the prompt is billed as counted here.
    const args = JSON.stringify({ city: "Paris", notes: "sunny and warm ".repeat(500) });
    const response = await admin.call("POST", "/chat/completions", withCall(args));
    expect(response.status).toBe(200);
    await response.text();
    await settled();
    const usage = await h.deps.db.selectFrom("chat_usage").select(["prompt_tokens", "estimated"]).where("org_id", "=", admin.orgId).executeTakeFirstOrThrow();
    expect(usage.estimated).toBe(1);
    expect(usage.prompt_tokens).toBeGreaterThan(countTokens(args));
  });

  it("answers with the model name the client asked for, in JSON and in every chunk", async () => {
    const admin = await setup(10);
    const json = await (await admin.call("POST", "/chat/completions", ask("fake-echo", { stream: false }))).json();
    expect(json.model).toBe("fake-echo");
    const text = await (await admin.call("POST", "/chat/completions", ask("fake-echo"))).text();
    const models = [...text.matchAll(/"model":"([^"]+)"/g)].map((m) => m[1]);
    expect(models.length).toBeGreaterThan(3);
    expect(new Set(models)).toEqual(new Set(["fake-echo"]));
    await settled();
  });

  it("bills a stream aborted mid-way (as by a shutdown) for what was sent, and releases the rest", async () => {
    const admin = await setup(10);
    const controller = new AbortController();
    const response = await h.fetch("/chat/completions", { method: "POST", cookie: admin.cookie, json: ask("fake-hang"), signal: controller.signal });
    await response.body!.getReader().read();
    expect((await account(admin.orgId)).reserved_micros).toBeGreaterThan(0);
    controller.abort();
    await settled();
    const after = await account(admin.orgId);
    expect(after.reserved_micros).toBe(0);
    const receipt = await h.deps.db.selectFrom("chat_usage").selectAll().where("org_id", "=", admin.orgId).executeTakeFirstOrThrow();
    expect(receipt.outcome).toBe("stopped");
    expect(receipt.cost_micros).toBeGreaterThan(0);
    expect((await charged(admin.orgId)).ledger).toBe(receipt.cost_micros);
  });

  it("cuts a stream that passes what was held, says so as OpenAI does, and bills what was sent, never more than was held", async () => {
    const admin = await setup(10);
    const response = await admin.call("POST", "/chat/completions", ask("fake-long", { max_tokens: 20, stream_options: { include_usage: true } }));
    const text = await response.text();
    const pieces = (text.match(/ word/g) ?? []).length;
    expect(pieces).toBeGreaterThan(0);
    expect(pieces).toBeLessThanOrEqual(20);
    // The client can tell the answer was cut: finish_reason "length", the usage it asked for, then [DONE].
    const events = text.split("\n\n").filter((e) => e.startsWith("data: "));
    expect(events.at(-1)).toBe("data: [DONE]");
    const [finish, usage] = events.slice(-3, -1).map((e) => JSON.parse(e.slice(6)));
    expect(finish.choices).toEqual([{ index: 0, delta: {}, finish_reason: "length" }]);
    expect(usage).toMatchObject({ choices: [], usage: { completion_tokens: pieces } });
    await settled();
    const receipt = await h.deps.db.selectFrom("chat_usage").selectAll().where("org_id", "=", admin.orgId).executeTakeFirstOrThrow();
    expect(receipt.outcome).toBe("stopped");
    expect(receipt.completion_tokens).toBe(pieces);
    expect(receipt.cost_micros).toBeLessThanOrEqual(receipt.prompt_tokens * INPUT + 20 * OUTPUT);
    expect((await charged(admin.orgId)).ledger).toBe(receipt.cost_micros);
  });
});
