import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { AppWindow, BarChart3 } from "lucide-react";
import { homeNav, organizationNav, systemNav } from "./nav";
import { navIcon } from "./nav-icon";

describe("navIcon", () => {
  it("renders exactly lucide's markup for every sidebar icon", () => {
    for (const { icon: Icon } of [...homeNav, ...organizationNav, ...systemNav, { icon: AppWindow }, { icon: BarChart3 }]) {
      expect(renderToStaticMarkup(navIcon(Icon))).toBe(renderToStaticMarkup(<Icon className="size-4" aria-hidden />));
    }
  });

  it("builds each icon once, without lucide's component", () => {
    expect(navIcon(homeNav[0].icon)).toBe(navIcon(homeNav[0].icon));
    expect(navIcon(homeNav[0].icon).type).toBe("svg");
  });
});
