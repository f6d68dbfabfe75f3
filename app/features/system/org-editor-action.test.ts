import type { AppLoadContext } from "@remix-run/node";
import { beforeAll, describe, expect, it } from "vitest";
import { action } from "~/routes/_org._system.system.orgs";
import { toastOf } from "~/toast.testing";

beforeAll(() => {
  process.env.SESSION_SECRET ??= "test-secret-test-secret-test-secret";
});

const SESSION = {
  valid: true,
  user: { id: 1, name: "Ada", email: "ada@example.test" },
  organizations: [{ id: 1, name: "System" }],
  activeOrganization: { id: 1, name: "System", hasPaymentMethod: false },
  activeRole: "admin",
};

/** The system organization's admin, on a platform that saves nothing: every other call is recorded. */
function platform() {
  const calls: string[] = [];
  const context = {
    clientAddress: "127.0.0.1",
    platformFetch: async (request: Request | { url: string; method: string }) => {
      const path = new URL(request.url).pathname.replace(/^\/api\/v1/, "");
      if (path === "/auth/session") return Response.json(SESSION);
      calls.push(`${request.method} ${path}`);
      return Response.json({ error: "Not found" }, { status: 404 });
    },
  } as unknown as AppLoadContext;
  return { context, calls };
}

async function post(fields: Record<string, string>) {
  const { context, calls } = platform();
  const request = new Request("http://console.test/system/orgs", { method: "POST", body: new URLSearchParams(fields) });
  const answer = (await action({ request, context, params: {} })) as unknown as { data: { message?: string }; init: { status?: number } | null };
  return { status: answer.init?.status, message: answer.data.message, calls };
}

describe("the Org Editor's action", () => {
  it("answers a form with an unknown intent with the form's failure message, not zod's wording, and saves nothing", async () => {
    for (const intent of ["delete", ""]) {
      const answer = await post({ intent, orgId: "7", paymentMode: "invoice" });
      expect(answer).toEqual({ status: 400, message: "Failed to update organization", calls: [] });
    }
  });

  it("answers a payment mode with a broken organization id with the form's failure message", async () => {
    expect(await post({ intent: "payment-mode", orgId: "x", paymentMode: "invoice" })).toEqual({
      status: 400,
      message: "Failed to update organization",
      calls: [],
    });
  });

  it("still names a payment mode that is not one of the three", async () => {
    expect(await post({ intent: "payment-mode", orgId: "7", paymentMode: "free" })).toEqual({
      status: 400,
      message: "Choose manual, auto or invoice",
      calls: [],
    });
  });
});

const HEBREW = "שירותי ענן";

/** A write the platform accepts: organization 59, named in Hebrew, afterwards. */
async function accepted(fields: Record<string, string>) {
  const context = {
    clientAddress: "127.0.0.1",
    platformFetch: async (request: Request | { url: string; method: string }) => {
      const path = new URL(request.url).pathname.replace(/^\/api\/v1/, "");
      if (path === "/auth/session") return Response.json(SESSION);
      return Response.json({ id: 59, name: HEBREW, memberCount: 2, paymentMode: "invoice", balance: 12.5, createdAt: "2026-11-01T00:00:00.000Z" });
    },
  } as unknown as AppLoadContext;
  const request = new Request("http://console.test/system/orgs", {
    method: "POST",
    body: new URLSearchParams({ orgId: "59", pageOrganization: "1", ...fields }),
  });
  return toastOf((await action({ request, context, params: {} })) as Response);
}

describe("the Org Editor's toasts", () => {
  it("isolate the organization's name, so a right-to-left name leaves the numbers and words around it in place", async () => {
    expect(await accepted({ intent: "rename", name: HEBREW })).toBe(`Organization 59 is now called \u2068${HEBREW}\u2069.`);
    expect(await accepted({ intent: "payment-mode", paymentMode: "invoice" })).toBe(`\u2068${HEBREW}\u2069 now uses Invoice billing.`);
    expect(await accepted({ intent: "grant-credit", amount: "12.50", reason: "Welcome trial" })).toBe(
      `Granted $12.50 to \u2068${HEBREW}\u2069: Credit: Welcome trial. Balance $12.50.`,
    );
    expect(await accepted({ intent: "reverse-credit", amount: "7.50", reason: "Granted twice" })).toBe(
      `Took back $7.50 from \u2068${HEBREW}\u2069: Credit reversed: Granted twice. Balance $12.50.`,
    );
  });
});
