import { describe, expect, it, vi } from "vitest";
import { staticPage } from "~/lib/static-page.testing";
import type { AuditEntry } from "~/platform/audit";
import { filtersFrom } from "./audit-filters";

const loaderData = vi.hoisted(() => ({ current: undefined as unknown }));
vi.mock("@remix-run/react", async () => ({ ...(await import("react-router-dom")), useLoaderData: () => loaderData.current }));

const { default: AuditPage } = await import("~/routes/_org.audit");

const entry = (organizationName: string): AuditEntry => ({
  id: 1,
  organizationId: 59,
  organizationName,
  actor: { id: 2, name: "Ada", email: "ada@example.test" },
  action: "token.created",
  target: "tok_1",
  oldValue: null,
  newValue: null,
  address: null,
  timestamp: "2026-11-29T10:00:00.000Z",
});

/** The heading of the system organization's log filtered to organization 59, named `name`. */
async function heading(name: string) {
  loaderData.current = {
    filters: filtersFrom(new URLSearchParams("organization=59")),
    system: true,
    entries: [entry(name)],
    nextBefore: null,
    loadError: null,
  };
  const html = (await staticPage("/audit?organization=59", <AuditPage />, { organization: 1 }))();
  return /<h2 id="audit-title"[^>]*>(.*?)<\/h2>/.exec(html)?.[1] ?? "";
}
const text = (html: string) => html.replace(/<[^>]*>/g, "");

describe("the audit log of one organization", () => {
  it("isolates the organization's name in its heading: a right-to-left name leaves the number after it", async () => {
    const name = "שירותי ענן";
    expect(await heading(name)).toContain(`<bdi>${name}</bdi>`);
    expect(text(await heading(name))).toBe(`Entries of ${name} (#59)`);
    expect(text(await heading("Acme"))).toBe("Entries of Acme (#59)");
  });
});

describe("an entry's values before and after", () => {
  it("reads as words and dollars, a field a line, never JSON", async () => {
    loaderData.current = {
      filters: filtersFrom(new URLSearchParams()),
      system: false,
      entries: [
        {
          ...entry("Acme"),
          action: "token.settings_changed",
          oldValue: { budget: { amount: 5, period: "month" }, allowedModels: ["builtin"], rateLimitRpm: 10 },
          newValue: { budget: null, allowedModels: null, rateLimitRpm: null },
        },
      ],
      nextBefore: null,
      loadError: null,
    };
    const html = (await staticPage("/audit", <AuditPage />))();
    const cells = [...html.matchAll(/<td class="text-xs break-words">(.*?)<\/td>/g)].map((m) => m[1]);
    const lines = (cell: string) => [...cell.matchAll(/<div>(.*?)<\/div>/g)].map((m) => text(m[1]));
    expect(cells.map(text).join(" | ")).not.toMatch(/[{}[\]]|&quot;|\bnull\b/);
    expect(cells.map(lines)).toEqual([
      ["Budget: $5.00 a month", "Allowed models: builtin", "Rate limit: 10 / min"],
      ["Budget: no limit", "Allowed models: all models", "Rate limit: no limit"],
    ]);
  });
});

describe("an entry's actor", () => {
  it("is marked 'unverified' when the provider had not proved the email, and only then (not when unknown)", async () => {
    loaderData.current = {
      filters: filtersFrom(new URLSearchParams()),
      system: false,
      entries: [
        { ...entry("Acme"), id: 3, actor: { id: 7, name: "Ops", email: "ops@corp.test", emailVerified: false } },
        { ...entry("Acme"), id: 2, actor: { id: 6, name: "Ops", email: "ops@corp.test", emailVerified: true } },
        { ...entry("Acme"), id: 1, actor: { id: 5, name: "Old", email: "old@corp.test" } },
      ],
      nextBefore: null,
      loadError: null,
    };
    const html = (await staticPage("/audit", <AuditPage />))();
    const rows = [...html.matchAll(/<tr[^>]*>(.*?)<\/tr>/g)].map((m) => text(m[1])).slice(1);
    expect(rows).toHaveLength(3);
    expect(rows[0]).toContain("ops@corp.testunverified");
    expect(rows[1]).not.toContain("unverified");
    expect(rows[2]).not.toContain("unverified");
  });
});
