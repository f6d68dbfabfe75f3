import { describe, expect, it } from "vitest";
import { auditSearch, filtersFrom, platformQuery } from "./audit-filters";

describe("the audit page's filters", () => {
  it("reads the URL leniently: unknown actions and bad dates are no filter", () => {
    expect(filtersFrom(new URLSearchParams("action=nope&from=2026-13-45&to=x&actor=%20a@b.c%20&before=-1"))).toEqual({
      action: null,
      actor: "a@b.c",
      from: "",
      to: "",
      organization: null,
      before: null,
    });
    expect(filtersFrom(new URLSearchParams("from=2024-02-30&to=2023-02-29"))).toMatchObject({ from: "", to: "" });
    expect(filtersFrom(new URLSearchParams("from=2024-02-29&to=2024-12-31"))).toMatchObject({ from: "2024-02-29", to: "2024-12-31" });
  });

  it("turns days in the viewer's time zone into an instant range, the last day included", () => {
    const filters = filtersFrom(new URLSearchParams("action=token.created&from=2026-03-29&to=2026-03-29"));
    const utc = platformQuery(filters, "UTC", { paged: false, system: false });
    expect(utc.get("from")).toBe(String(Date.UTC(2026, 2, 29)));
    expect(utc.get("to")).toBe(String(Date.UTC(2026, 2, 30)));
    // Europe/Paris moves to summer time on 29 March 2026: that day is 23 hours long.
    const paris = platformQuery(filters, "Europe/Paris", { paged: false, system: false });
    expect(Number(paris.get("from"))).toBe(Date.UTC(2026, 2, 28, 23));
    expect(Number(paris.get("to"))).toBe(Date.UTC(2026, 2, 29, 22));
    // Havana skips midnight on 8 March: the day begins at the change, 01:00 local (05:00Z), not at the
    // day before's 23:00 (audit O, O6).
    const havana = platformQuery(filtersFrom(new URLSearchParams("from=2026-03-08&to=2026-03-08")), "America/Havana", { paged: false, system: false });
    expect(Number(havana.get("from"))).toBe(Date.UTC(2026, 2, 8, 5));
  });

  it("keeps the organization for the system view only, and the page only when paging", () => {
    const filters = filtersFrom(new URLSearchParams("organization=7&before=40"));
    expect(platformQuery(filters, "UTC", { paged: true, system: false }).toString()).toBe("before=40");
    expect(platformQuery(filters, "UTC", { paged: false, system: true }).toString()).toBe("organization=7");
    expect(auditSearch(filters, { before: 12 })).toBe("?organization=7&before=12");
  });
});
