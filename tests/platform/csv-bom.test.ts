import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AUDIT_CSV_COLUMNS } from "@contract/audit";
import { LEDGER_CSV_HEADER, USAGE_CSV_HEADER } from "@contract/usage";
import { grantCredit } from "../../platform/billing/credits";
import type { Harness, Session } from "./harness";
import { createHarness } from "./harness";
import { afterBom, parseCsv } from "../csv";

// Right to left, CJK and an emoji beyond the BMP: what Excel garbles when it guesses the ANSI code page.
const NAME = "ليلى כהן 李雷 🚀";
const MODEL = "模型-نموذج";
const REASON = "هدية ترحيب 🎁";

let h: Harness;
let admin: Session & { orgId: number };

beforeEach(async () => {
  const clock = Date.UTC(2025, 0, 15, 12, 0, 0);
  h = await createHarness({}, () => clock);
  admin = await h.admin("Acme");
  const member = await h.signIn(NAME);
  await h.join(admin, member);
  await grantCredit(h.deps, admin.orgId, 5, REASON);
  await h.deps.db
    .insertInto("chat_usage")
    .values({
      receipt_id: "rcpt_bom",
      org_id: admin.orgId,
      user_id: member.userId,
      token_id: null,
      model: MODEL,
      rate_card_id: null,
      prompt_tokens: 1,
      completion_tokens: 1,
      reasoning_tokens: 0,
      cost_micros: 1,
      estimated: 0,
      outcome: "completed",
      created_at: clock - 1000,
    })
    .execute();
});
afterEach(() => h.close());

describe("every CSV export starts with the UTF-8 byte order mark, so Excel reads names as written", () => {
  it.each([
    ["usage", "/usage/export?days=7", USAGE_CSV_HEADER, [MODEL, NAME]],
    ["ledger", "/billing/ledger/export", LEDGER_CSV_HEADER, [`Credit: ${REASON}`]],
    ["audit log", "/audit/export?action=member.joined", AUDIT_CSV_COLUMNS, [NAME]],
  ] as const)("the %s: the mark once, then the header, and a non-Latin name as UTF-8", async (_, path, header, names) => {
    const response = await admin.call("GET", path);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const [first, ...rows] = parseCsv(afterBom(bytes));
    expect(first).toEqual([...header]);
    for (const name of names)
      expect(
        rows.some((row) => row.includes(name)),
        name,
      ).toBe(true);
  });
});
