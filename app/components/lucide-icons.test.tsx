import * as lucide from "lucide-react";
import { Copy, LucideProvider, Ticket } from "lucide-react";
import type { ComponentType, ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";

// lucide-react is patched (patches/, decision 0087's sixth and seventh passes): a plain icon's element
// is built once per icon and props, with its shapes as one piece of markup. Each icon must still come
// out with its own props, however often it renders, and with the shapes React would write.
const svg = (markup: string) => markup.match(/^<svg[^>]*>/)![0];
const shapes = (markup: string) => markup.slice(svg(markup).length);

describe("icons", () => {
  it("render each call's own classes and labels, however often", () => {
    for (let round = 0; round < 3; round++) {
      expect(svg(renderToStaticMarkup(<Ticket className="size-5" aria-hidden />))).toBe(
        '<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" class="lucide lucide-ticket size-5" aria-hidden="true">',
      );
      expect(svg(renderToStaticMarkup(<Ticket className="size-4" aria-hidden />))).toContain('class="lucide lucide-ticket size-4"');
      expect(svg(renderToStaticMarkup(<Copy className="size-4" aria-hidden />))).toContain('class="lucide lucide-copy size-4"');
      const labelled = svg(renderToStaticMarkup(<Ticket aria-label="Invite code" />));
      expect(labelled).toContain('aria-label="Invite code"');
      expect(labelled).not.toContain("aria-hidden");
      expect(svg(renderToStaticMarkup(<Ticket />))).toContain('aria-hidden="true"');
    }
  });

  it("render sizes, colours, children, styles and the provider's defaults", () => {
    for (let round = 0; round < 2; round++) {
      expect(svg(renderToStaticMarkup(<Ticket size={16} color="red" strokeWidth={1} />))).toContain(
        'width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="red" stroke-width="1"',
      );
      expect(renderToStaticMarkup(<Copy>{<title>Copy</title>}</Copy>)).toContain("<title>Copy</title>");
      expect(svg(renderToStaticMarkup(<Copy style={{ color: "red" }} />))).toContain('style="color:red"');
      expect(
        svg(
          renderToStaticMarkup(
            <LucideProvider size={20} className="in-menu">
              <Copy className="size-4" aria-hidden />
            </LucideProvider>,
          ),
        ),
      ).toContain(
        'width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" class="lucide lucide-copy in-menu size-4"',
      );
      expect(svg(renderToStaticMarkup(<Copy className="size-4" aria-hidden />))).toContain('width="24"');
      expect(
        svg(
          renderToStaticMarkup(
            <LucideProvider className="in-menu">
              <Copy className="size-4" aria-hidden />
            </LucideProvider>,
          ),
        ),
      ).toContain('class="lucide lucide-copy in-menu size-4"');
      expect(svg(renderToStaticMarkup(<Copy className="size-4" aria-hidden />))).toContain('class="lucide lucide-copy size-4"');
    }
  });

  it("draw every icon's shapes as React draws them", () => {
    // An icon with children is not a plain one: React renders its shapes, one element each.
    // Each icon once (an icon is exported under several names), with one of its names.
    const icons = new Map<unknown, string>();
    for (const [name, value] of Object.entries(lucide)) if (name.endsWith("Icon") && value !== lucide.Icon && typeof value === "object") icons.set(value, name);
    expect(icons.size).toBeGreaterThan(1000);
    for (const [value, name] of icons) {
      const Icon = value as ComponentType<{ nonScalingStroke?: boolean; children?: ReactNode }>;
      for (const nonScalingStroke of [false, true]) {
        const plain = renderToStaticMarkup(<Icon nonScalingStroke={nonScalingStroke} />);
        const withChildren = renderToStaticMarkup(<Icon nonScalingStroke={nonScalingStroke}>{[]}</Icon>);
        expect(shapes(plain), name).toBe(shapes(withChildren));
        expect(shapes(plain), name).toMatch(/^(<(path|circle|rect|line|ellipse|polyline|polygon) [^<>]+><\/\2>)+<\/svg>$/);
      }
    }
  });
});
