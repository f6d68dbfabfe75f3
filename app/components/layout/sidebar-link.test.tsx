import { Link } from "@remix-run/react";
import { Ticket } from "lucide-react";
import type { ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { MemoryRouter } from "react-router-dom";
import { afterEach, describe, expect, it } from "vitest";
import { SidebarLink } from "./Sidebar";

// On the server a sidebar link writes its <a> itself, without Remix's Link (decision 0087, tenth
// pass); the browser hydrates that <a> as a Link. Both must write the same markup, byte for byte.
const at = (pathname: string, element: ReactNode) => renderToString(<MemoryRouter initialEntries={[pathname]}>{element}</MemoryRouter>);

function remixLink(to: string, active: boolean) {
  return (
    <Link to={to} prefetch="intent" aria-current={active ? "page" : undefined} className={active ? "menu-active bg-primary! text-primary-content!" : ""}>
      <Ticket className="size-4" aria-hidden />
      Team
    </Link>
  );
}

function sidebarLink(to: string, active: boolean) {
  return (
    <SidebarLink to={to} active={active}>
      <Ticket className="size-4" aria-hidden />
      Team
    </SidebarLink>
  );
}

const global = globalThis as { document?: unknown };
afterEach(() => {
  delete global.document;
});

describe("a sidebar link", () => {
  it("writes on the server the markup Remix's Link writes, active or not, from any page", () => {
    for (const pathname of ["/team", "/billing", "/models/some/model"]) {
      for (const [to, active] of [
        ["/team", true],
        ["/team", false],
        ["/model-editor", false],
      ] as const) {
        const written = at(pathname, sidebarLink(to, active));
        expect(written).toBe(at(pathname, remixLink(to, active)));
        expect(written).toContain(`href="${to}"`);
      }
    }
  });

  it("is Remix's Link in the browser, with its prefetch on intent", () => {
    global.document = {};
    const element = SidebarLink({ to: "/team", active: true, children: "Team" });
    expect(element.type).toBe(Link);
    expect(element.props).toMatchObject({ to: "/team", prefetch: "intent", "aria-current": "page" });
  });
});
