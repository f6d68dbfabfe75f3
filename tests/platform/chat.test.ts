import http from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import OpenAI from "openai";
import type { LedgerRow } from "@contract/billing";
import type { UpstreamUsage } from "@contract/chat";
import type { CreatedApiToken } from "@contract/tokens";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createPlatform } from "../../platform/app";
import { setPaymentMode } from "../../platform/billing/accounts";
import { creditPayment } from "../../platform/billing/ledger";
import { saveModel } from "../../platform/models/service";
import { rollUp } from "../../platform/usage/rollup";
import { createStreamTracker } from "../../server/shutdown";
import { flushPendingMeterings } from "../../platform/chat/service";
import { sweepExpiredReservations } from "../../platform/chat/expired-holds";
import { extendReservation, reserve } from "../../platform/spend/reservations";
import { sql } from "kysely";
import type { FakeUpstream } from "../fakes/openai-upstream";
import { countTokens } from "gpt-tokenizer";
import { FAKE_ANSWER_PIECES, FAKE_REASONING, FAKE_USAGE, startFakeUpstream, TOOL_ARGUMENT_PIECES } from "../fakes/openai-upstream";
import type { Harness } from "./harness";
import { createHarness } from "./harness";
import { saveFakeModels } from "./fake-models";

let fake: FakeUpstream;
let h: Harness;

beforeAll(async () => {
  fake = await startFakeUpstream({ apiKey: "sk-upstream" });
});
afterAll(() => fake.close());
afterEach(() => h?.close());

async function setup(config: Parameters<typeof createHarness>[0] = {}, now?: () => number) {
  h = await createHarness(config, now);
  await saveFakeModels(
    h.deps,
    fake.url,
    ["echo", "think", "slow", "hang", "no-usage", "rate-limited", "warming", "keep-alive", "tool-call", "bad-key", "bad-request", "odd-usage", "slow-first"],
    { apiKey: "sk-upstream" },
  );
  const admin = await h.admin();
  await credit(admin.orgId, 10);
  return admin;
}

let payments = 0;
async function credit(orgId: number, dollars: number) {
  payments += 1;
  await creditPayment(h.deps, { orgId, paymentIntentId: `pi_test_${payments}`, amountMicros: dollars * 1e6, description: "Test funds" });
}

async function balanceOf(orgId: number): Promise<number> {
  return Number((await h.deps.db.selectFrom("billing_accounts").select("balance_micros").where("org_id", "=", orgId).executeTakeFirstOrThrow()).balance_micros);
}

async function tokenMonthSpent(tokenId: number): Promise<number> {
  return Number((await h.deps.db.selectFrom("api_tokens").select("month_spent_micros").where("id", "=", tokenId).executeTakeFirstOrThrow()).month_spent_micros);
}

async function ledger(session: Awaited<ReturnType<typeof setup>>) {
  return (await (await session.call("GET", "/billing/ledger")).json()) as LedgerRow[];
}

const ask = (model: string) => ({ model, messages: [{ role: "user", content: "Say hello" }], stream: true });

async function readAll(response: Response): Promise<string> {
  return new TextDecoder().decode(await response.arrayBuffer());
}

/** A streamed call through /openai/v1 with a new API token of the chat scope. */
async function streamWithNewToken(admin: Awaited<ReturnType<typeof setup>>, model: string) {
  const token = (await (await admin.call("POST", "/tokens", { scopes: ["chat"], expiresAt: null })).json()) as CreatedApiToken;
  const response = await h.fetch("/openai/v1/chat/completions", { method: "POST", json: ask(model), headers: { authorization: `Bearer ${token.token}` } });
  return { token, response };
}

async function receipt(session: Awaited<ReturnType<typeof setup>>, response: Response) {
  const id = response.headers.get("x-receipt-id");
  expect(id).toBeTruthy();
  // Metering runs as the stream ends; give it the moment it needs.
  for (let i = 0; i < 50; i++) {
    const r = await session.call("GET", `/chat/receipts/${id}`);
    if (r.status === 200) return r.json();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error("no receipt");
}

describe("POST /chat/completions", () => {
  it("streams the built-in model's reply with a reasoning block, ending with [DONE]", async () => {
    const admin = await setup();
    const response = await admin.call("POST", "/chat/completions", ask("builtin"));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const text = await readAll(response);
    expect(text).toContain("<think>");
    expect(text).toContain("**Say ");
    expect(text.trim().endsWith("data: [DONE]")).toBe(true);
    const r = await receipt(admin, response);
    expect(r).toMatchObject({ model: "builtin", cost: 0, estimated: false, outcome: "completed" });
    expect(r.reasoningTokens).toBeGreaterThan(0);
  });

  it("forwards to the upstream with its key and model id, passing the stream through unchanged", async () => {
    const admin = await setup();
    const response = await admin.call("POST", "/chat/completions", ask("fake-echo"));
    const text = await readAll(response);
    expect(fake.requests.at(-1)).toMatchObject({ model: "echo", authorization: "Bearer sk-upstream" });
    expect(text).toContain(JSON.stringify({ reasoning_content: FAKE_REASONING }));
    for (const piece of FAKE_ANSWER_PIECES) expect(text).toContain(JSON.stringify(piece));
    const r = await receipt(admin, response);
    expect(r).toMatchObject({ inputTokens: FAKE_USAGE.prompt_tokens, outputTokens: FAKE_USAGE.completion_tokens, reasoningTokens: 6, estimated: false });
    // 11 input tokens at $1/M + 13 output tokens at $2/M
    expect(r.cost).toBeCloseTo(0.000037, 9);
  });

  it("does not buffer: the first chunk arrives before the upstream has finished", async () => {
    const admin = await setup();
    const finishedBefore = fake.finished;
    const response = await admin.call("POST", "/chat/completions", ask("fake-slow"));
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toContain('"role":"assistant"');
    expect(fake.finished).toBe(finishedBefore);
    while (!(await reader.read()).done);
    expect(fake.finished).toBe(finishedBefore + 1);
    await receipt(admin, response);
  });

  it("propagates a client abort to the upstream, and bills what was generated, estimated", async () => {
    const admin = await setup();
    const controller = new AbortController();
    const response = await h.fetch("/chat/completions", { method: "POST", cookie: admin.cookie, json: ask("fake-hang"), signal: controller.signal });
    const reader = response.body!.getReader();
    await reader.read();
    const closed = fake.nextClose();
    controller.abort();
    await closed; // the fake saw its request closed
    const r = await receipt(admin, response);
    expect(r).toMatchObject({ outcome: "stopped", estimated: true, outputTokens: 0 });
    expect(r.inputTokens).toBeGreaterThan(0);
    expect(r.cost).toBeGreaterThan(0);
  });

  it("sends a keep-alive comment while the upstream is silent, and stops when the stream ends", async () => {
    const admin = await setup({ streamKeepAliveMs: 40 });
    const controller = new AbortController();
    const response = await h.fetch("/chat/completions", { method: "POST", cookie: admin.cookie, json: ask("fake-hang"), signal: controller.signal });
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    expect(decoder.decode((await reader.read()).value)).toMatch(/^data: /);
    expect(decoder.decode((await reader.read()).value)).toBe(": keep-alive\n\n");
    expect(decoder.decode((await reader.read()).value)).toBe(": keep-alive\n\n");
    controller.abort();
    await receipt(admin, response);

    // Between slow chunks too; nothing after [DONE], and no timer left to write to a closed stream.
    const whole = await readAll(await admin.call("POST", "/chat/completions", ask("fake-slow")));
    expect(whole.split(": keep-alive\n\n").length).toBeGreaterThan(2);
    expect(whole.endsWith("data: [DONE]\n\n")).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 150));
  });

  it("counts a stream without upstream usage with the tokenizer and marks it estimated", async () => {
    const admin = await setup();
    const response = await admin.call("POST", "/chat/completions", ask("fake-no-usage"));
    await readAll(response);
    const r = await receipt(admin, response);
    expect(r).toMatchObject({ estimated: true, outcome: "completed" });
    expect(r.outputTokens).toBeGreaterThan(0);
    expect(r.reasoningTokens).toBeGreaterThan(0);
  });

  it("writes a reply's usage once the database answers again, when it failed as the reply ended (decision 0100)", async () => {
    const admin = await setup();
    const response = await admin.call("POST", "/chat/completions", ask("fake-slow"));
    await sql`alter table chat_usage rename to chat_usage_away`.execute(h.deps.db);
    expect(await readAll(response)).toContain("data: [DONE]");
    await new Promise((resolve) => setTimeout(resolve, 200));
    await sql`alter table chat_usage_away rename to chat_usage`.execute(h.deps.db);
    const id = response.headers.get("x-receipt-id");
    await expect.poll(async () => (await admin.call("GET", `/chat/receipts/${id}`)).status, { timeout: 5_000 }).toBe(200);
    expect((await ledger(admin)).filter((row) => row.model === "fake-slow")).toHaveLength(1);
  });

  it("at a stop, tries once more each charge waiting for the database, and names in the log those it could not write", async () => {
    const admin = await setup();
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const written = await admin.call("POST", "/chat/completions", ask("fake-slow"));
      await sql`alter table chat_usage rename to chat_usage_away`.execute(h.deps.db);
      await readAll(written);
      await sql`alter table chat_usage_away rename to chat_usage`.execute(h.deps.db);
      // Back before its retry: the stop writes it.
      expect(await flushPendingMeterings(h.deps)).toBe(0);
      expect((await ledger(admin)).filter((row) => row.model === "fake-slow")).toHaveLength(1);

      const lost = await admin.call("POST", "/chat/completions", ask("fake-slow"));
      await sql`alter table chat_usage rename to chat_usage_away`.execute(h.deps.db);
      await readAll(lost);
      expect(await flushPendingMeterings(h.deps)).toBe(1);
      const id = lost.headers.get("x-receipt-id");
      expect(errors.mock.calls.map((call) => String(call[0]))).toContainEqual(
        expect.stringMatching(new RegExp(`^Metering of ${id} not written before the stop \\(.*\\); bill it by hand\\. The charge: \\{"orgId":${admin.orgId},`)),
      );
      await sql`alter table chat_usage_away rename to chat_usage`.execute(h.deps.db);
    } finally {
      errors.mockRestore();
    }
  });

  it("counts a usage row written after a long outage in the usage report: stamped when written, like its ledger row", async () => {
    let clock = Date.now();
    const admin = await setup({}, () => clock);
    const response = await admin.call("POST", "/chat/completions", ask("fake-slow"));
    await sql`alter table chat_usage rename to chat_usage_away`.execute(h.deps.db);
    expect(await readAll(response)).toContain("data: [DONE]");
    // Eleven minutes later the database answers again, and the roll-ups count up to ten minutes ago
    // before the write is tried again (a second after it failed).
    clock += 11 * 60_000;
    await sql`alter table chat_usage_away rename to chat_usage`.execute(h.deps.db);
    await rollUp(h.deps, admin.orgId);
    expect(await h.deps.db.selectFrom("chat_usage").select("id").execute()).toEqual([]);
    await receipt(admin, response);
    const usage = await (await admin.call("GET", "/usage?days=7")).json();
    expect(usage.totals.requests).toBe(1);
  });

  it("charges a stream whose process died, at its hold's expiry, for what it had recorded it sent", async () => {
    // Progress is recorded every few seconds, long before the minute's recheck.
    const admin = await setup({ streamProgressMs: 50, streamRecheckMs: 60_000, reservationTtlMs: 150 });
    const { response } = await streamWithNewToken(admin, "fake-slow");
    // While it runs, its hold keeps what it has sent so far.
    const hold = async () => h.deps.db.selectFrom("spend_reservations").select(["progress", "amount_micros"]).executeTakeFirst();
    const read = readAll(response);
    let seen: Awaited<ReturnType<typeof hold>>;
    await expect.poll(async () => JSON.parse((seen = await hold())?.progress ?? "null")?.count?.completionTokens ?? 0, { interval: 20 }).toBeGreaterThan(0);
    const { progress, amount_micros: held } = seen!;
    const recorded = JSON.parse(progress!) as { caller: { tokenId: number }; count: { promptTokens: number; completionTokens: number } };
    const tokenId = recorded.caller.tokenId;
    await read;
    await receipt(admin, response);
    const before = { balance: await balanceOf(admin.orgId), tokenMonth: await tokenMonthSpent(tokenId) };

    // The same stream in a process killed right after it recorded that: its hold is left, never settled.
    const dead = "rcpt_killed_mid_stream";
    await reserve(h.deps, { orgId: admin.orgId, tokenId, tokenBudgeted: false, receiptId: dead, amountMicros: held });
    await extendReservation(h.deps, dead, progress!);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await sweepExpiredReservations(h.deps)).toBe(1);

    const cost = Math.ceil(recorded.count.promptTokens * 1 + recorded.count.completionTokens * 2);
    expect(await (await admin.call("GET", `/chat/receipts/${dead}`)).json()).toMatchObject({
      outcome: "failed",
      inputTokens: recorded.count.promptTokens,
      outputTokens: recorded.count.completionTokens,
      estimated: true,
    });
    expect((await ledger(admin))[0]).toMatchObject({ description: expect.stringMatching(/output tokens \(estimated\), failed$/) });
    expect(before.balance - (await balanceOf(admin.orgId))).toBe(cost);
    expect((await tokenMonthSpent(tokenId)) - before.tokenMonth).toBe(cost);
    expect(await h.deps.db.selectFrom("spend_reservations").selectAll().execute()).toEqual([]);
    expect(await h.deps.db.selectFrom("billing_accounts").select("reserved_micros").where("org_id", "=", admin.orgId).executeTakeFirst()).toEqual({
      reserved_micros: 0,
    });
    // Swept again: charged once.
    expect(await sweepExpiredReservations(h.deps)).toBe(0);
  });

  it("keeps a long stream's hold, and stops it with an error event once its API token is revoked", async () => {
    const admin = await setup({ streamRecheckMs: 50, reservationTtlMs: 150 });
    const { token, response } = await streamWithNewToken(admin, "fake-slow");
    expect(response.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 400));
    // Past its first expiry, still running: the sweeper finds nothing to release.
    expect(await sweepExpiredReservations(h.deps)).toBe(0);
    expect((await admin.call("DELETE", `/tokens/${token.publicId}`)).status).toBe(200);
    const text = await readAll(response);
    expect(text).toContain('"code":"token_revoked"');
    expect(text).not.toContain("[DONE]");
    expect(await receipt(admin, response)).toMatchObject({ outcome: "stopped" });
  });

  it("stops a stream whose secret a roll without grace replaced, and lets one in its grace run on", async () => {
    const admin = await setup({ streamRecheckMs: 50 });
    const graced = await streamWithNewToken(admin, "fake-slow");
    expect((await admin.call("POST", `/tokens/${graced.token.publicId}/roll`, { grace: "1h" })).status).toBe(200);
    const gracedText = await readAll(graced.response);
    expect(gracedText).toContain("[DONE]");
    expect(gracedText).not.toContain("token_revoked");

    const refused = await streamWithNewToken(admin, "fake-slow");
    expect(refused.response.status).toBe(200);
    expect((await admin.call("POST", `/tokens/${refused.token.publicId}/roll`, { grace: "none" })).status).toBe(200);
    const text = await readAll(refused.response);
    expect(text).toContain('"code":"token_revoked"');
    expect(text).not.toContain("[DONE]");
    expect(await receipt(admin, refused.response)).toMatchObject({ outcome: "stopped" });
  });

  it("stops a stream made with the primary token's secret once the token is reset", async () => {
    const admin = await setup({ streamRecheckMs: 50 });
    const first = (await (await admin.call("POST", "/organizations/reset-token")).json()) as { token: string };
    const response = await h.fetch("/openai/v1/chat/completions", {
      method: "POST",
      json: ask("fake-slow"),
      headers: { authorization: `Bearer ${first.token}` },
    });
    expect(response.status).toBe(200);
    expect((await admin.call("POST", "/organizations/reset-token")).status).toBe(200);
    const text = await readAll(response);
    expect(text).toContain('"code":"token_revoked"');
    expect(text).not.toContain("[DONE]");
  });

  it("keeps the platform's upstream credentials out of what the caller reads", async () => {
    const admin = await setup();
    const refused = await admin.call("POST", "/chat/completions", ask("fake-bad-key"));
    expect(refused.status).toBe(502);
    expect((await refused.json()).error.message).toBe("The model 'fake-bad-key' is not available: its provider refused the platform's credentials");
    const bad = await admin.call("POST", "/chat/completions", ask("fake-bad-request"));
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.message).toBe("Invalid request: key [redacted] is not allowed to use max_tokens above 10");
  });

  it("keeps the hold of a slow JSON answer from expiring while the upstream works", async () => {
    // A hold that lasts 150 ms, an answer that takes 600 ms: without the extension, the sweeper's
    // expiry would have released money the request was still spending.
    const admin = await setup({ streamRecheckMs: 50, reservationTtlMs: 150 });
    const response = admin.call("POST", "/chat/completions", { ...ask("fake-slow-first"), stream: false });
    await new Promise((resolve) => setTimeout(resolve, 400));
    const open = await h.deps.db.selectFrom("spend_reservations").select("expires_at").execute();
    expect(open).toHaveLength(1);
    expect(open[0].expires_at).toBeGreaterThan(Date.now());
    expect((await response).status).toBe(200);
  });

  it("stops a member's stream once they are removed from the organization", async () => {
    const admin = await setup({ streamRecheckMs: 50 });
    const member = await h.signIn();
    await h.join(admin, member);
    const response = await member.call("POST", "/chat/completions", ask("fake-slow"));
    expect(response.status).toBe(200);
    expect((await admin.call("DELETE", `/organizations/members/${member.userId}`)).status).toBe(200);
    const text = await readAll(response);
    expect(text).toContain('"code":"membership_revoked"');
    expect(text).not.toContain("[DONE]");
    const usage = (await ledger(admin)).filter((row) => row.model === "fake-slow");
    expect(usage).toHaveLength(1);
    expect(usage[0].description).toMatch(/stopped/);
  });

  it("counts a tool call as output when the upstream sends no usage, streamed or not", async () => {
    const admin = await setup();
    const generated = countTokens("get_weather" + TOOL_ARGUMENT_PIECES.join(""));
    const streamed = await admin.call("POST", "/chat/completions", ask("fake-tool-call"));
    expect(await readAll(streamed)).toContain("get_weather");
    expect(await receipt(admin, streamed)).toMatchObject({ estimated: true, outcome: "completed", outputTokens: generated });
    const whole = await admin.call("POST", "/chat/completions", { ...ask("fake-tool-call"), stream: false });
    expect((await whole.clone().json()).usage.completion_tokens).toBe(generated);
    expect(await receipt(admin, whole)).toMatchObject({ estimated: true, outputTokens: generated });
  });

  it("tells the upstream the output cap that was held: the model's default when the client sets none, else the larger of its two", async () => {
    const admin = await setup();
    await saveModel(h.deps, {
      name: "fake-capped",
      displayName: "Fake capped",
      provider: "vllm",
      contextSize: 32768,
      defaultMaxTokens: 64,
      baseUrl: fake.url,
      apiKey: "sk-upstream",
      upstreamModel: "echo",
      rateCard: { id: "rc-capped", inputPerMillion: 1, outputPerMillion: 2 },
    });
    const forwarded = async (extra: Record<string, unknown>) => {
      await readAll(await admin.call("POST", "/chat/completions", { ...ask("fake-capped"), ...extra }));
      return fake.requests.at(-1)!.body;
    };
    expect(await forwarded({})).toMatchObject({ max_tokens: 64 });
    expect(await forwarded({ max_tokens: 10 })).toMatchObject({ max_tokens: 10 });
    // Each cap field carries the cap that was held: max_completion_tokens when given (OpenAI's current
    // field), whichever field an upstream reads; never more than the client asked for in it.
    expect(await forwarded({ max_completion_tokens: 12 })).toMatchObject({ max_completion_tokens: 12, max_tokens: 12 });
    expect(await forwarded({ max_tokens: 1, max_completion_tokens: 100_000 })).toMatchObject({ max_completion_tokens: 32768, max_tokens: 32768 });
    expect(await forwarded({ max_tokens: 20, max_completion_tokens: 5 })).toMatchObject({ max_completion_tokens: 5, max_tokens: 5 });
    // OpenAI's reasoning models refuse max_tokens: not added for an OpenAI upstream.
    await saveModel(h.deps, {
      name: "fake-openai",
      displayName: "Fake OpenAI",
      provider: "openai",
      contextSize: 32768,
      defaultMaxTokens: 64,
      baseUrl: fake.url,
      apiKey: "sk-upstream",
      upstreamModel: "echo",
      rateCard: { id: "rc-openai", inputPerMillion: 1, outputPerMillion: 2 },
    });
    await readAll(await admin.call("POST", "/chat/completions", { ...ask("fake-openai"), max_completion_tokens: 12 }));
    expect(fake.requests.at(-1)!.body.max_completion_tokens).toBe(12);
    expect(fake.requests.at(-1)!.body.max_tokens).toBeUndefined();
    // Its default too, when the client sets no cap.
    await readAll(await admin.call("POST", "/chat/completions", ask("fake-openai")));
    expect(fake.requests.at(-1)!.body.max_completion_tokens).toBe(64);
    expect(fake.requests.at(-1)!.body.max_tokens).toBeUndefined();
    // A model without a default: the upstream's own limit, as before.
    expect((await readAll(await admin.call("POST", "/chat/completions", ask("fake-echo"))), fake.requests.at(-1)!.body.max_tokens)).toBeUndefined();
  });

  it("bills its own count when the upstream's usage is not whole numbers, streamed or not (PostgreSQL refused to store 10.5)", async () => {
    const admin = await setup();
    for (const stream of [true, false]) {
      const response = await admin.call("POST", "/chat/completions", { ...ask("fake-odd-usage"), stream, stream_options: { include_usage: true } });
      expect(response.status).toBe(200);
      const text = await readAll(response.clone());
      const billed = await receipt(admin, response);
      expect(billed).toMatchObject({ estimated: true, outputTokens: expect.any(Number) });
      expect(Number.isInteger(billed.inputTokens)).toBe(true);
      // The client is told the figures it is billed, not the ones that were not believed (decision 0138).
      const told = stream
        ? (
            JSON.parse(
              text
                .split("\n\n")
                .filter((e) => e.includes('"usage":{'))
                .at(-1)!
                .slice("data: ".length),
            ) as { usage: UpstreamUsage }
          ).usage
        : (JSON.parse(text) as { usage: UpstreamUsage }).usage;
      expect(told).toEqual({
        prompt_tokens: billed.inputTokens,
        completion_tokens: billed.outputTokens,
        total_tokens: billed.inputTokens + billed.outputTokens,
        completion_tokens_details: { reasoning_tokens: billed.reasoningTokens },
      });
    }
    expect((await ledger(admin)).filter((row) => row.model === "fake-odd-usage")).toHaveLength(2);
  });

  it("takes reasoning inside a <think> block into the receipt", async () => {
    const admin = await setup();
    const response = await admin.call("POST", "/chat/completions", ask("fake-think"));
    expect(await readAll(response)).toContain("<think>");
    expect((await receipt(admin, response)).reasoningTokens).toBe(6);
  });

  it("passes the upstream's 429 and 503 on with their Retry-After, in the OpenAI error shape", async () => {
    const admin = await setup();
    const limited = await admin.call("POST", "/chat/completions", ask("fake-rate-limited"));
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("7");
    expect(await limited.json()).toEqual({ error: { message: "Too many requests", type: "rate_limit_exceeded", param: null, code: "rate_limit_exceeded" } });
    const warming = await admin.call("POST", "/chat/completions", ask("fake-warming"));
    expect(warming.status).toBe(503);
    expect(warming.headers.get("retry-after")).toBe("120");
    expect((await warming.json()).error.message).toBe("Model is loading");
  });

  it("answers an unknown model with 404 in the OpenAI error shape", async () => {
    const admin = await setup();
    const response = await admin.call("POST", "/chat/completions", ask("no-such-model"));
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      error: { message: "The model 'no-such-model' does not exist", type: "invalid_request_error", param: "model", code: "model_not_found" },
    });
  });

  it("refuses bad input with 400 and signed-out callers with 401", async () => {
    const admin = await setup();
    expect((await admin.call("POST", "/chat/completions", { model: "builtin", messages: [] })).status).toBe(400);
    const anonymous = await h.fetch("/chat/completions", { method: "POST", json: ask("builtin") });
    expect(anonymous.status).toBe(401);
    expect((await anonymous.json()).error.type).toBe("authentication_error");
  });

  it("answers a non-streamed request as JSON and meters it", async () => {
    const admin = await setup();
    const response = await admin.call("POST", "/chat/completions", { ...ask("fake-echo"), stream: false });
    const body = await response.json();
    expect(body.choices[0].message.content).toBe(FAKE_ANSWER_PIECES.join(""));
    expect((await receipt(admin, response)).estimated).toBe(false);
  });

  it("shows a receipt only to its own organization", async () => {
    const admin = await setup();
    const response = await admin.call("POST", "/chat/completions", ask("builtin"));
    await readAll(response);
    await receipt(admin, response);
    const other = await h.admin("Other");
    expect((await other.call("GET", `/chat/receipts/${response.headers.get("x-receipt-id")}`)).status).toBe(404);
  });
});

describe("metering into the billing ledger", () => {
  it("writes one ledger row per completion, with the model, rate card and cost", async () => {
    const admin = await setup();
    for (let i = 0; i < 2; i++) {
      const response = await admin.call("POST", "/chat/completions", ask("fake-echo"));
      await readAll(response);
      await receipt(admin, response);
    }
    const usage = (await ledger(admin)).filter((row) => row.model);
    expect(usage).toHaveLength(2);
    expect(usage[0]).toMatchObject({ model: "fake-echo", rateCardId: "rc-echo", change: -0.000037 });
    const balance = await (await admin.call("GET", "/billing/balance")).json();
    expect(balance).toBeCloseTo(10 - 2 * 0.000037, 9);
  });

  it("bills a stopped stream once, for what reached the client, and says it is estimated", async () => {
    const admin = await setup();
    const controller = new AbortController();
    const response = await h.fetch("/chat/completions", { method: "POST", cookie: admin.cookie, json: ask("fake-hang"), signal: controller.signal });
    await response.body!.getReader().read();
    controller.abort();
    await receipt(admin, response);
    const usage = (await ledger(admin)).filter((row) => row.model);
    expect(usage).toHaveLength(1);
    expect(usage[0].description).toContain("(estimated)");
    expect(usage[0].change).toBeLessThan(0);
  });

  it("refuses a priced model with 402 when a manual organization's balance is not above zero", async () => {
    await setup();
    const broke = await h.admin("Broke");
    const response = await broke.call("POST", "/chat/completions", ask("fake-echo"));
    expect(response.status).toBe(402);
    expect((await response.json()).error.type).toBe("insufficient_quota");
  });

  it("never refuses in invoice mode, and the built-in model is free", async () => {
    await setup();
    const broke = await h.admin("Invoiced");
    const free = await broke.call("POST", "/chat/completions", ask("builtin"));
    expect(free.status).toBe(200);
    await readAll(free);
    await receipt(broke, free);
    expect((await ledger(broke)).filter((row) => row.model)).toHaveLength(0);
    await setPaymentMode(h.deps, broke.orgId, "invoice");
    const invoiced = await broke.call("POST", "/chat/completions", ask("fake-echo"));
    expect(invoiced.status).toBe(200);
    await readAll(invoiced);
    await receipt(broke, invoiced);
    // The ledger row follows the receipt as the stream's metering finishes.
    await expect.poll(async () => (await ledger(broke)).filter((row) => row.model).length).toBe(1);
  });
});

describe("/openai/v1 with the official openai client", () => {
  async function serve() {
    const admin = await setup();
    // As the server serves it (server/index.ts): streamed replies pass through the shutdown's tracker.
    const platform = createPlatform(h.deps);
    const streams = createStreamTracker();
    const listener = getRequestListener(async (request: Request, bindings: unknown) => streams.track(await platform.fetch(request, bindings)));
    const server = http.createServer((req, res) => void listener(req, res));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/openai/v1`;
    const created = await admin.call("POST", "/tokens", { scopes: ["chat", "models:read"], expiresAt: null });
    expect(created.status).toBe(201);
    const token = (await created.json()) as CreatedApiToken;
    return { admin, server, base, token };
  }

  it("streams a completion with a token made through the API, and is refused once it is revoked", async () => {
    const { admin, server, base, token } = await serve();
    try {
      const client = new OpenAI({ baseURL: base, apiKey: token.token, maxRetries: 0 });
      const models = await client.models.list();
      expect(models.data.map((m) => m.id)).toContain("fake-echo");
      const stream = await client.chat.completions.create({ model: "fake-echo", messages: [{ role: "user", content: "Say hello" }], stream: true });
      let text = "";
      for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? "";
      expect(text).toBe(FAKE_ANSWER_PIECES.join(""));
      expect((await admin.call("DELETE", `/tokens/${token.publicId}`)).status).toBe(200);
      const refused = client.chat.completions.create({ model: "fake-echo", messages: [{ role: "user", content: "Again" }], stream: true });
      await expect(refused).rejects.toMatchObject({ status: 401 });
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it("answers an unknown model with 404 and a token without the chat scope with 403", async () => {
    const { admin, server, base, token } = await serve();
    try {
      const client = new OpenAI({ baseURL: base, apiKey: token.token, maxRetries: 0 });
      await expect(client.chat.completions.create({ model: "nope", messages: [{ role: "user", content: "x" }] })).rejects.toMatchObject({ status: 404 });
      const narrow = (await (await admin.call("POST", "/tokens", { scopes: ["models:read"], expiresAt: null })).json()) as CreatedApiToken;
      const limited = new OpenAI({ baseURL: base, apiKey: narrow.token, maxRetries: 0 });
      await expect(limited.chat.completions.create({ model: "builtin", messages: [{ role: "user", content: "x" }] })).rejects.toMatchObject({ status: 403 });
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});

describe("/openai/v1 as OpenAI's clients read it (decision 0098)", () => {
  let server: http.Server | undefined;
  afterEach(() => {
    server?.closeAllConnections();
    server?.close();
    server = undefined;
  });

  async function client(scopes = ["chat", "models:read"], settings: Record<string, unknown> = {}) {
    const admin = await setup();
    // As the server serves it (server/index.ts): streamed replies pass through the shutdown's tracker.
    const platform = createPlatform(h.deps);
    const streams = createStreamTracker();
    const listener = getRequestListener(async (request: Request, bindings: unknown) => streams.track(await platform.fetch(request, bindings)));
    server = http.createServer((req, res) => void listener(req, res));
    await new Promise<void>((r) => server!.listen(0, "127.0.0.1", r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/openai/v1`;
    const token = (await (await admin.call("POST", "/tokens", { scopes, expiresAt: null, ...settings })).json()) as CreatedApiToken;
    return { admin, base, token, openai: new OpenAI({ baseURL: base, apiKey: token.token, maxRetries: 0 }) };
  }
  const hello = [{ role: "user" as const, content: "Say hello" }];
  /** Every chunk of a stream that asked for the usage chunk. */
  async function withUsage(openai: OpenAI, model: string) {
    const chunks = [];
    for await (const chunk of await openai.chat.completions.create({ model, messages: hello, stream: true, stream_options: { include_usage: true } }))
      chunks.push(chunk);
    return chunks;
  }

  it("streams only chunks with a choice unless the client asks for usage, as the SDK's own loop expects", async () => {
    const { openai } = await client();
    const stream = await openai.chat.completions.create({ model: "fake-echo", messages: hello, stream: true });
    let text = "";
    for await (const chunk of stream) text += chunk.choices[0].delta.content ?? "";
    expect(text).toBe(FAKE_ANSWER_PIECES.join(""));

    const chunks = await withUsage(openai, "fake-echo");
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: FAKE_USAGE.prompt_tokens, completion_tokens: FAKE_USAGE.completion_tokens } });
    expect(chunks.slice(0, -1).every((c) => c.choices.length === 1 && !c.usage)).toBe(true);
  });

  it("reports the usage it bills when asked and the upstream sent none", async () => {
    const { openai } = await client();
    const chunks = await withUsage(openai, "fake-no-usage");
    const usage = chunks.at(-1)!.usage!;
    expect(usage.completion_tokens).toBeGreaterThan(0);
    expect(usage.total_tokens).toBe(usage.prompt_tokens + usage.completion_tokens);
  });

  it("tells a token with a requests-per-minute limit where it stands, in OpenAI's headers", async () => {
    const { openai } = await client(["chat", "models:read"], { rateLimitRpm: 5 });
    const { data, response } = await openai.chat.completions.create({ model: "fake-echo", messages: hello, stream: true }).withResponse();
    for await (const chunk of data) expect(chunk.object).toBe("chat.completion.chunk");
    expect(response.headers.get("x-ratelimit-limit-requests")).toBe("5");
    expect(response.headers.get("x-ratelimit-remaining-requests")).toBe("4");
    expect(response.headers.get("x-ratelimit-reset-requests")).toMatch(/^\d+s$/);
    expect(response.headers.get("access-control-expose-headers")).toContain("x-ratelimit-remaining-requests");
  });

  it("passes an upstream's keep-alive comments on, which the SDK skips", async () => {
    const { openai, base, token } = await client();
    const response = await fetch(`${base}/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${token.token}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "fake-keep-alive", messages: hello, stream: true }),
    });
    const lines = (await response.text()).split("\n");
    expect(lines.filter((line) => line === ": PROCESSING").length).toBeGreaterThan(FAKE_ANSWER_PIECES.length);
    expect(lines.at(-3)).toBe("data: [DONE]");

    let text = "";
    for await (const chunk of await openai.chat.completions.create({ model: "fake-keep-alive", messages: hello, stream: true }))
      text += chunk.choices[0].delta.content ?? "";
    expect(text).toBe(FAKE_ANSWER_PIECES.join(""));
  });

  it("retrieves a model, and lists and retrieves only what a token's allow-list lets it call", async () => {
    const { openai, admin } = await client();
    expect(await openai.models.retrieve("fake-echo")).toMatchObject({ id: "fake-echo", object: "model", owned_by: "vllm" });
    await expect(openai.models.retrieve("nope")).rejects.toMatchObject({ status: 404, code: "model_not_found" });
    const narrow = (await (
      await admin.call("POST", "/tokens", { scopes: ["chat", "models:read"], expiresAt: null, allowedModels: ["fake-echo"] })
    ).json()) as CreatedApiToken;
    const limited = new OpenAI({ baseURL: openai.baseURL, apiKey: narrow.token, maxRetries: 0 });
    expect((await limited.models.list()).data.map((m) => m.id)).toEqual(["fake-echo"]);
    await expect(limited.models.retrieve("builtin")).rejects.toMatchObject({ status: 404 });
  });

  it("gives refusals OpenAI's code and param, and an id to quote", async () => {
    const { openai, base } = await client();
    await expect(openai.chat.completions.create({ model: "nope", messages: hello })).rejects.toMatchObject({
      status: 404,
      code: "model_not_found",
      param: "model",
      requestID: expect.stringMatching(/^req_/),
    });
    const stranger = new OpenAI({ baseURL: base, apiKey: "sk-not-a-token", maxRetries: 0 });
    await expect(stranger.models.list()).rejects.toMatchObject({ status: 401, code: "invalid_api_key" });
    await expect(openai.chat.completions.create({ model: "fake-echo", messages: hello, max_tokens: -5 })).rejects.toMatchObject({
      status: 400,
      param: "max_tokens",
    });
    await expect(openai.chat.completions.create({ model: "fake-echo", messages: hello, max_tokens: 2.5 })).rejects.toMatchObject({
      status: 400,
      param: "max_tokens",
    });
    const answer = await openai.chat.completions.create({ model: "fake-echo", messages: hello }).withResponse();
    expect(answer.request_id).toBe(answer.response.headers.get("x-receipt-id"));
  });

  it("refuses a body that is not JSON, saying so, and tells clients not to retry a model under maintenance", async () => {
    const { base, token } = await client();
    const post = (body: string, type: string) =>
      fetch(`${base}/chat/completions`, { method: "POST", headers: { authorization: `Bearer ${token.token}`, "content-type": type }, body });
    for (const refused of [
      await post('{"model":"fake-echo","messages":[}', "application/json"),
      await post(JSON.stringify({ model: "fake-echo", messages: hello }), "text/plain"),
    ]) {
      expect(refused.status).toBe(400);
      expect((await refused.json()).error).toMatchObject({ code: "invalid_json", message: expect.stringMatching(/^We could not parse the JSON body/) });
    }
    // Nested 5,000 deep (10 KB): JSON.parse takes it, JSON.stringify's recursion did not (a 500, or a
    // 502 counted against the model). Refused before the upstream is called, nothing held or counted.
    const deep = "[".repeat(5000) + "]".repeat(5000);
    const sent = fake.requests.length;
    for (const body of [
      `{"model":"fake-echo","messages":[{"role":"user","content":"hi"}],"tools":${deep}}`,
      `{"model":"fake-echo","messages":[{"role":"user","content":${deep}}]}`,
    ]) {
      const refused = await post(body, "application/json");
      expect(refused.status).toBe(400);
      expect((await refused.json()).error).toMatchObject({
        type: "invalid_request_error",
        message: "The JSON body of your request nests more than 100 levels deep.",
      });
    }
    expect(fake.requests.length).toBe(sent);
    await saveModel(h.deps, {
      name: "fake-echo",
      displayName: "Fake echo",
      provider: "vllm",
      contextSize: 32768,
      baseUrl: fake.url,
      apiKey: "sk-upstream",
      upstreamModel: "echo",
      rateCard: { id: "rc-echo", inputPerMillion: 1, outputPerMillion: 2 },
      status: "maintenance",
    });
    const maintenance = await post(JSON.stringify({ model: "fake-echo", messages: hello }), "application/json");
    expect(maintenance.status).toBe(503);
    expect(maintenance.headers.get("x-should-retry")).toBe("false");
    expect((await maintenance.json()).error.code).toBe("model_under_maintenance");
  });

  it("answers browsers on other origins (CORS): a preflight, and the call itself", async () => {
    const { base, token } = await client();
    const preflight = await fetch(`${base}/chat/completions`, {
      method: "OPTIONS",
      headers: { origin: "https://app.example", "access-control-request-method": "POST", "access-control-request-headers": "authorization, content-type" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    expect(preflight.headers.get("access-control-allow-headers")).toMatch(/authorization/i);
    const call = await fetch(`${base}/models`, { headers: { origin: "https://app.example", authorization: `Bearer ${token.token}` } });
    expect(call.status).toBe(200);
    expect(call.headers.get("access-control-allow-origin")).toBe("*");
    expect(call.headers.get("access-control-expose-headers")).toMatch(/x-request-id/);
    // A streamed reply and refusals made past authentication carry it too, or the browser reads none of them.
    const complete = (model: string, stream: boolean) =>
      fetch(`${base}/chat/completions`, {
        method: "POST",
        headers: { origin: "https://app.example", authorization: `Bearer ${token.token}`, "content-type": "application/json" },
        body: JSON.stringify({ model, stream, messages: hello }),
      });
    for (const [model, stream, status] of [
      ["fake-echo", true, 200],
      ["fake-echo", false, 200],
      ["no-such-model", false, 404],
      ["fake-rate-limited", false, 429],
    ] as const) {
      const answer = await complete(model, stream);
      expect([model, stream, answer.status, answer.headers.get("access-control-allow-origin")]).toEqual([model, stream, status, "*"]);
      expect(answer.headers.get("access-control-expose-headers")).toMatch(/x-receipt-id|x-request-id/);
      await answer.body?.cancel();
    }
  });
});

describe("/openai/v1", () => {
  it("refuses a request without a token in the OpenAI error shape, whatever its origin", async () => {
    await setup();
    const response = await h.fetch("/openai/v1/chat/completions", { method: "POST", json: ask("builtin"), headers: { origin: "https://elsewhere.example" } });
    expect(response.status).toBe(401);
    expect((await response.json()).error.type).toBe("authentication_error");
    expect((await h.fetch("/openai/v1/models")).status).toBe(401);
    expect((await h.fetch("/openai/v1/nothing")).status).toBe(404);
  });

  it("leaves /api/v1 as it was", async () => {
    await setup();
    expect((await h.fetch("/organizations/config")).status).toBe(200);
    expect(await (await h.fetch("/nothing")).json()).toEqual({ error: "Not found" });
  });
});
