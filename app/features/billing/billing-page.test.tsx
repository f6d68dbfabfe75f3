import type { AppLoadContext } from "@remix-run/node";
import { describe, expect, it, vi } from "vitest";
import { renderRoute, routeData, setUpRoutePages } from "~/lib/route-page.testing";

/**
 * The /billing route as a whole: its loader and action against a fake platform, and its page rendered
 * on the server (what a browser without JavaScript gets) with what they answered. `@remix-run/react`'s
 * data hooks read the answers set here; the rest is React Router's, which Remix's components are.
 */
vi.mock("@remix-run/react", async () => (await import("~/lib/route-page.testing")).remixReadingRouteData());

const { action, loader, default: BillingPage } = await import("~/routes/_org.billing");

setUpRoutePages();

/** "unreachable": the call throws, as a refused connection does. */
type Answer = { status?: number; body: unknown } | "unreachable";
const SESSION = {
  valid: true,
  user: { id: 1, name: "Ada", email: "ada@example.test" },
  organizations: [{ id: 7, name: "Acme" }],
  activeOrganization: { id: 7, name: "Acme", hasPaymentMethod: true },
  activeRole: "admin",
};
const FAILED: Answer = { status: 500, body: { error: "Internal error" } };

/** The platform's answers by method and path (without /api/v1 and the query); the calls are recorded. */
function fakePlatform(answers: Record<string, Answer> = {}) {
  const calls: { method: string; path: string; body: unknown }[] = [];
  const defaults: Record<string, Answer> = {
    "GET /auth/session": { body: SESSION },
    "GET /billing/balance": { body: -123.45 },
    "GET /billing/ledger": { body: [] },
    "GET /billing/config": { body: { paymentMode: "invoice", autoPaymentConfig: null } },
    "GET /billing/payment-method": { body: { paymentMethod: { brand: "visa", last4: "4242" } } },
    "GET /billing/recharges": { body: { rechargesPerDay: 3, paused: null } },
    "GET /billing/spend-cap": { body: { monthlyCap: 100, spentThisMonth: 12, reserved: 0 } },
  };
  const context = {
    clientAddress: "127.0.0.1",
    platformFetch: async (request: Request | { url: string; method: string }) => {
      const url = new URL(request.url);
      const path = url.pathname.replace(/^\/api\/v1/, "");
      const body = request instanceof Request && request.body ? await request.json() : undefined;
      calls.push({ method: request.method, path, body });
      const answer = answers[`${request.method} ${path}`] ?? defaults[`${request.method} ${path}`] ?? { status: 404, body: { error: "Not found" } };
      if (answer === "unreachable") throw new Error("connect ECONNREFUSED");
      return Response.json(answer.body, { status: answer.status ?? 200 });
    },
  } as unknown as AppLoadContext;
  return { context, calls };
}

async function load(platform: ReturnType<typeof fakePlatform>, url = "/billing") {
  const answer = (await loader({ request: new Request(`http://console.test${url}`), context: platform.context, params: {} })) as unknown as {
    data: unknown;
  };
  return answer.data;
}

async function post(platform: ReturnType<typeof fakePlatform>, fields: Record<string, string>, url = "/billing") {
  const request = new Request(`http://console.test${url}`, { method: "POST", body: new URLSearchParams(fields) });
  return (await action({ request, context: platform.context, params: {} })) as unknown as { data: unknown; init: { status?: number } | null };
}

const render = (url = "/billing") => renderRoute(url, <BillingPage />);

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ")
    .trim();

describe("a billing configuration that could not be loaded", () => {
  it("is passed on as unknown, not as manual mode with auto-reload off", async () => {
    const data = (await load(fakePlatform({ "GET /billing/config": FAILED }))) as { config: unknown };
    expect(data.config).toBeNull();
  });

  it("shows the load error in the balance card, with no Add funds, no auto-reload area and no Configure (an invoice organization)", async () => {
    routeData.loader = await load(fakePlatform({ "GET /billing/config": FAILED }));
    const html = await render();
    const shown = text(html);
    expect(shown).toContain("Failed to load billing configuration.");
    expect(shown).not.toContain("Current Balance");
    expect(shown).not.toContain("-$123.45");
    expect(shown).not.toContain("Add funds");
    expect(shown).not.toContain("Auto-reload");
    expect(shown).not.toContain("Configure");
    expect(html).not.toContain("dialog=add-funds");
    expect(html).not.toContain("dialog=auto-payment");
  });

  it("opens neither the auto-payment dialog nor the add-funds one by their URLs, so nothing can save a guess", async () => {
    routeData.loader = await load(fakePlatform({ "GET /billing/config": FAILED }));
    for (const dialog of ["auto-payment", "add-funds"]) {
      const html = await render(`/billing?dialog=${dialog}`);
      expect(html).not.toContain('role="dialog"');
      expect(html).not.toContain('name="intent" value="auto-payment"');
      expect(html).not.toContain('name="intent" value="add-funds"');
    }
  });

  it("still shows the card and the balance of a loaded invoice organization as before", async () => {
    routeData.loader = await load(fakePlatform());
    const shown = text(await render());
    expect(shown).toContain("Since Last Invoice");
    expect(shown).toContain("$123.45");
    expect(shown).not.toContain("Failed to load billing configuration.");
  });
});

describe("a balance or ledger the platform could not give (SPEC §8)", () => {
  const cases: [string, string][] = [
    ["Failed to load current balance.", "GET /billing/balance"],
    ["Failed to load ledger activity.", "GET /billing/ledger"],
  ];
  for (const [message, call] of cases)
    for (const [how, answer] of [
      ["unreachable", "unreachable"],
      ["a wrong shape", { body: "unexpected" }],
    ] as const)
      it(`shows '${message}' in an alert when ${call} is ${how}`, async () => {
        const quiet = vi.spyOn(console, "error").mockImplementation(() => {});
        try {
          routeData.loader = await load(fakePlatform({ [call]: answer }));
          expect(await render()).toContain(`<div role="alert" class="alert alert-error"><span>${message}</span></div>`);
        } finally {
          quiet.mockRestore();
        }
      });
});

describe("a refused 'Turn off auto-reload' (auto-reload on, no card: Paused)", () => {
  const PAUSED = {
    "GET /auth/session": { body: { ...SESSION, activeOrganization: { ...SESSION.activeOrganization, hasPaymentMethod: false } } },
    "GET /billing/config": { body: { paymentMode: "auto", autoPaymentConfig: { thresholdAmount: 20, rechargeAmount: 10 } } },
    "GET /billing/payment-method": { body: { paymentMethod: null } },
  };
  /** What the balance card's button sends: its own form, no amounts. */
  async function turnOffAnswer(refusal: Answer) {
    const platform = fakePlatform({ ...PAUSED, "POST /billing/auto-payment-config": refusal });
    routeData.loader = await load(platform);
    const html = await render();
    const form = /<form[^>]*>(?:(?!<\/form>).)*Turn off auto-reload(?:(?!<\/form>).)*<\/form>/s.exec(html)?.[0] ?? "";
    const fields = Object.fromEntries([...form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
    expect(fields.intent).toBe("auto-payment");
    const answer = await post(platform, fields);
    expect(answer.init?.status).toBe(400);
    routeData.action = answer.data;
    return render();
  }

  it("shows the server's error in the balance card, focused, on the page answered without JavaScript", async () => {
    const html = await turnOffAnswer({ status: 409, body: { error: "This organization is billed by invoice: auto-payment is not available" } });
    const card = /<section[^>]*aria-labelledby="balance-title".*?<\/section>/s.exec(html)?.[0] ?? "";
    expect(card).toMatch(/role="alert"[^>]*tabindex="-1"[^>]*autofocus=""/i);
    expect(text(card)).toContain("This organization is billed by invoice: auto-payment is not available");
    expect(text(card)).toContain("Turn off auto-reload");
  });

  it("says 'Failed to save auto-payment settings' when the server gives no error text", async () => {
    const html = await turnOffAnswer({ status: 500, body: "" });
    const card = /<section[^>]*aria-labelledby="balance-title".*?<\/section>/s.exec(html)?.[0] ?? "";
    expect(text(card)).toContain("Failed to save auto-payment settings");
  });

  it("leaves the Configure dialog's refusals in the dialog", async () => {
    const platform = fakePlatform({
      "GET /billing/config": { body: { paymentMode: "auto", autoPaymentConfig: { thresholdAmount: 20, rechargeAmount: 10 } } },
      "POST /billing/auto-payment-config": { status: 400, body: { error: "No payment method on file. Add a payment method first." } },
    });
    routeData.loader = await load(platform);
    routeData.action = (
      await post(platform, { intent: "auto-payment", enabled: "on", thresholdAmount: "20", rechargeAmount: "10" }, "/billing?dialog=auto-payment")
    ).data;
    const html = await render("/billing?dialog=auto-payment");
    const card = /<section[^>]*aria-labelledby="balance-title".*?<\/section>/s.exec(html)?.[0] ?? "";
    expect(text(card)).not.toContain("No payment method on file.");
    const dialog = /<div class="modal modal-open".*$/s.exec(html)?.[0] ?? "";
    expect(text(dialog)).toContain("No payment method on file. Add a payment method first.");
  });
});

describe("a monthly spend cap that could not be loaded", () => {
  it("offers an admin no form, so Save cannot remove the cap it did not show", async () => {
    routeData.loader = await load(fakePlatform({ "GET /billing/spend-cap": FAILED }));
    const html = await render();
    expect(text(html)).toContain("The monthly spend cap could not be loaded.");
    expect(html).not.toContain('value="spend-cap"');
    expect(text(html)).not.toContain("Save cap");
  });

  it("offers the form with the cap when it loaded", async () => {
    routeData.loader = await load(fakePlatform());
    const html = await render();
    expect(html).toContain('value="spend-cap"');
    expect(html).toMatch(/name="monthlyCap"[^>]*value="100"|value="100"[^>]*name="monthlyCap"/);
  });
});

describe("the auto-payment dialog's toggle", () => {
  const toggle = (html: string) => /<input[^>]*name="enabled"[^>]*>/.exec(html)?.[0] ?? "";
  it("starts off when the card reads Disabled (manual mode, amounts kept), with the kept amounts", async () => {
    routeData.loader = await load(
      fakePlatform({ "GET /billing/config": { body: { paymentMode: "manual", autoPaymentConfig: { thresholdAmount: 5, rechargeAmount: 15 } } } }),
    );
    const html = await render("/billing?dialog=auto-payment");
    expect(text(html)).toMatch(/Auto-reload: Disabled/);
    expect(toggle(html)).not.toContain("checked");
    expect(html).toMatch(/name="thresholdAmount"[^>]*value="5"|value="5"[^>]*name="thresholdAmount"/);
    expect(html).toMatch(/name="rechargeAmount"[^>]*value="15"|value="15"[^>]*name="rechargeAmount"/);
  });

  it("starts on when the card reads Enabled", async () => {
    routeData.loader = await load(
      fakePlatform({ "GET /billing/config": { body: { paymentMode: "auto", autoPaymentConfig: { thresholdAmount: 5, rechargeAmount: 15 } } } }),
    );
    const html = await render("/billing?dialog=auto-payment");
    expect(text(html)).toMatch(/Auto-reload: Enabled/);
    expect(toggle(html)).toContain("checked");
  });
});

describe("a spend cap saved by an admin demoted meanwhile", () => {
  it("shows the platform's refusal without JavaScript, though the form went with the role", async () => {
    const demoted = { ...SESSION, activeRole: "member" };
    const platform = fakePlatform({
      "GET /auth/session": { body: demoted },
      "POST /billing/spend-cap": { status: 403, body: { error: "Only admins can do this" } },
    });
    routeData.loader = await load(platform);
    const answer = await post(platform, { intent: "spend-cap", monthlyCap: "50" });
    expect(answer.init?.status).toBe(403);
    routeData.action = answer.data;
    const html = await render();
    expect(html).not.toContain('value="spend-cap"');
    expect(text(html)).toContain("Only admins can do this");
  });
});

describe("the auto-payment dialog's charge warning", () => {
  const AUTO: Answer = { body: { paymentMode: "auto", autoPaymentConfig: { thresholdAmount: 20, rechargeAmount: 10 } } };
  it("counts what running requests hold, as the platform's recharge rule does", async () => {
    const platform = fakePlatform({
      "GET /billing/config": AUTO,
      "GET /billing/balance": { body: 25 },
      "GET /billing/spend-cap": { body: { monthlyCap: null, spentThisMonth: 0, reserved: 10 } },
    });
    routeData.loader = await load(platform);
    expect(text(await render("/billing?dialog=auto-payment"))).toContain(
      "What you can spend ($15.00: your balance less $10.00 held by running requests) is below the threshold: saving charges your card $10.00 now.",
    );
  });

  it("still warns from the balance alone when the hold could not be read (what can be spent is never more)", async () => {
    const platform = fakePlatform({ "GET /billing/config": AUTO, "GET /billing/balance": { body: 5 }, "GET /billing/spend-cap": FAILED });
    routeData.loader = await load(platform);
    expect(text(await render("/billing?dialog=auto-payment"))).toContain("Your balance ($5.00) is below the threshold: saving charges your card $10.00 now.");
  });
});

describe("switching auto-payment off in the dialog", () => {
  it("sends the platform no amounts, so amounts left in the fields (10.001) cannot refuse it", async () => {
    const platform = fakePlatform({
      "GET /billing/config": { body: { paymentMode: "auto", autoPaymentConfig: { thresholdAmount: 20, rechargeAmount: 10 } } },
      "POST /billing/auto-payment-config": { body: { paymentMode: "manual", autoPaymentConfig: { thresholdAmount: 20, rechargeAmount: 10 } } },
    });
    const answer = (await post(
      platform,
      { intent: "auto-payment", thresholdAmount: "10.001", rechargeAmount: "5" },
      "/billing?dialog=auto-payment",
    )) as unknown as Response;
    expect(answer.status).toBe(302);
    expect(platform.calls.filter((call) => call.method === "POST").map((call) => call.body)).toEqual([{ enabled: false }]);
  });
});
