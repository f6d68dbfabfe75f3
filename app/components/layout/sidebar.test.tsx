import { renderToString } from "react-dom/server";
import { afterAll, describe, expect, it } from "vitest";
import type { NavItem } from "./nav";
import { homeNav, memberOrganizationNav, organizationNav, systemNav } from "./nav";
import { staticPage } from "~/lib/static-page.testing";
import { isActivePath, prerenderSidebarNav, Sidebar } from "./Sidebar";

// The server writes the sidebar's lists from markup kept since its start (decision 0087, eleventh
// pass); the browser hydrates them as Remix's links. Both ways must write the same document.
const organization = { id: 7, name: "Acme" };
const sidebarAt = async (pathname: string, isAdmin: boolean, showSystem: boolean) =>
  (await staticPage(pathname, <Sidebar organizations={[organization]} active={organization} showSystem={showSystem} isAdmin={isAdmin} />))();

const pages = ["/team", "/", "/chat", "/models/acme/some-model", "/model-editor", "/system/orgs/3", "/audit", "/Billing", "/terms"];
const variants = [
  [true, true],
  [true, false],
  [false, false],
] as const;

afterAll(() => prerenderSidebarNav(renderToString));

describe("the sidebar", () => {
  it("writes the same markup from its kept lists as rendered afresh, on every page and for every role", async () => {
    const all = () => Promise.all(pages.flatMap((page) => variants.map(([isAdmin, showSystem]) => sidebarAt(page, isAdmin, showSystem))));
    const fresh = await all();
    prerenderSidebarNav(renderToString);
    const kept = await all();
    expect(kept).toEqual(fresh);
    expect(kept[0]).toContain('aria-current="page" class="menu-active bg-primary! text-primary-content!" data-discover="true" href="/team"');
    expect(kept[pages.indexOf("/audit") * variants.length]).toContain('href="/audit"');
    expect(kept[pages.indexOf("/audit") * variants.length + 2]).not.toContain('href="/audit"');
    expect(kept[0]).toContain("Model Editor");
    expect(kept[1]).not.toContain("Model Editor");
  });

  it("looks its lists up instead of rendering them", async () => {
    prerenderSidebarNav(() => "<li>kept</li>");
    const written = await sidebarAt("/team", false, true);
    expect(written.match(/<li>kept<\/li>/g)).toHaveLength(3);
    expect(written).not.toContain('href="/team"');
  });

  it("has at most one active link per section: no link's path, nor its flow's, lies under another's", () => {
    for (const items of [homeNav, organizationNav, memberOrganizationNav, systemNav]) {
      const paths = (item: NavItem) => [item.to, ...(item.flow ?? [])];
      for (const a of items) for (const b of items) if (a !== b) for (const p of paths(a)) for (const q of paths(b)) expect(isActivePath(p, q)).toBe(false);
    }
  });

  it("can show the one organization's long name in full, and cuts a right-to-left one at its end", async () => {
    const only = { id: 7, name: "שירותי ענן ".repeat(8).trim() };
    const html = (await staticPage("/team", <Sidebar organizations={[only]} active={only} showSystem={false} isAdmin />))();
    expect(html).toContain(`<p class="truncate px-2 text-sm text-base-content/70" title="${only.name}" dir="auto">${only.name}</p>`);
  });

  it("highlights the demo homes on the later pages of their flows", async () => {
    prerenderSidebarNav(renderToString);
    for (const [page, item] of [
      ["/playground/text/chat", "/"],
      ["/multimodal-chat", "/multimodal-home"],
      ["/avatar-chat", "/avatar-home"],
      ["/task-execution", "/task-home"],
      ["/template-editor", "/template-home"],
    ]) {
      expect(await sidebarAt(page, false, false), page).toContain(
        `aria-current="page" class="menu-active bg-primary! text-primary-content!" data-discover="true" href="${item}"`,
      );
    }
  });
});
