import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ApiToken } from "@contract/tokens";
import { authenticateApiToken, LAST_USED_GRANULARITY_MS } from "../../platform/tokens/service";
import type { Harness, Session } from "./harness";
import { createHarness } from "./harness";

// The metered path's cuts (decision 0087) keep what users see: lastUsedAt within a minute, revocation at once.
let clock: number;
let h: Harness;
let admin: Session & { orgId: number };

beforeEach(async () => {
  clock = Date.UTC(2025, 0, 15, 12, 0, 0);
  h = await createHarness({}, () => clock);
  admin = await h.admin();
});
afterEach(() => h.close());

async function lastUsedAt(publicId: string): Promise<number | null> {
  const tokens = (await (await admin.call("GET", "/tokens")).json()) as ApiToken[];
  return tokens.find((t) => t.publicId === publicId)!.lastUsedAt;
}

describe("an API token's lastUsedAt", () => {
  it("is written on first use, then at most once a minute: never more than a minute behind", async () => {
    const token = await (await admin.call("POST", "/tokens", { scopes: ["chat"], expiresAt: null })).json();
    const bearer = `Bearer ${token.token}`;
    clock += 1_000;
    const first = clock;
    expect(await authenticateApiToken(h.deps, bearer, "chat")).toMatchObject({ ok: true });
    expect(await lastUsedAt(token.publicId)).toBe(first);

    clock += LAST_USED_GRANULARITY_MS - 1;
    await authenticateApiToken(h.deps, bearer, "chat");
    expect(await lastUsedAt(token.publicId)).toBe(first);

    clock += 1;
    await authenticateApiToken(h.deps, bearer, "chat");
    expect(await lastUsedAt(token.publicId)).toBe(clock);
  });

  it("does not delay a revocation: the call right after it is refused", async () => {
    const token = await (await admin.call("POST", "/tokens", { scopes: ["chat"], expiresAt: null })).json();
    const bearer = `Bearer ${token.token}`;
    expect(await authenticateApiToken(h.deps, bearer, "chat")).toMatchObject({ ok: true });
    expect((await admin.call("DELETE", `/tokens/${token.publicId}`)).status).toBe(200);
    expect(await authenticateApiToken(h.deps, bearer, "chat")).toEqual({ ok: false, status: 401, error: "This API token has been revoked" });
  });
});
