import { describe, expect, it } from "vitest";
import type { Template } from "./templates";
import { TEMPLATES, TEMPLATE_TABS, filterTemplates, findTemplate, isTemplateTab } from "./templates";

const base = { thumbnail: "pen" as const, uses: 1, rating: 4, estimatedTime: "1 min", featured: false, fields: [] };
const sample: Template[] = [
  { ...base, id: "a", title: "Launch Video", description: "A promo for a product", category: "Marketing", tags: ["promo"] },
  { ...base, id: "b", title: "Podcast Intro", description: "Spoken intro with music", category: "Audio", tags: ["voice"] },
  { ...base, id: "c", title: "Product Photos", description: "Studio shots", category: "Image", tags: ["ecommerce", "promo"] },
];

describe("template search and tabs", () => {
  it("has the tabs All, Marketing, Video, Audio, Image, Content", () => {
    expect(TEMPLATE_TABS).toEqual(["All", "Marketing", "Video", "Audio", "Image", "Content"]);
    expect(isTemplateTab("Audio")).toBe(true);
    expect(isTemplateTab("audio")).toBe(false);
    expect(isTemplateTab(null)).toBe(false);
  });

  it("shows everything on All with an empty search", () => {
    expect(filterTemplates(sample, "", "All").map((t) => t.id)).toEqual(["a", "b", "c"]);
    expect(filterTemplates(sample, "   ", "All")).toHaveLength(3);
  });

  it("matches the title, the description and the tags, ignoring case", () => {
    expect(filterTemplates(sample, "LAUNCH", "All").map((t) => t.id)).toEqual(["a"]);
    expect(filterTemplates(sample, "music", "All").map((t) => t.id)).toEqual(["b"]);
    expect(filterTemplates(sample, "ecommerce", "All").map((t) => t.id)).toEqual(["c"]);
    expect(filterTemplates(sample, "promo", "All").map((t) => t.id)).toEqual(["a", "c"]);
  });

  it("requires every word of the search to match", () => {
    expect(filterTemplates(sample, "promo studio", "All").map((t) => t.id)).toEqual(["c"]);
  });

  it("narrows by the tab's category, together with the search", () => {
    expect(filterTemplates(sample, "", "Audio").map((t) => t.id)).toEqual(["b"]);
    expect(filterTemplates(sample, "promo", "Image").map((t) => t.id)).toEqual(["c"]);
    expect(filterTemplates(sample, "promo", "Audio")).toEqual([]);
    expect(filterTemplates(sample, "", "Content")).toEqual([]);
  });

  it("finds nothing for a search no template matches", () => {
    expect(filterTemplates(TEMPLATES, "zzz-no-such-thing", "All")).toEqual([]);
  });

  it("ships templates for every tab, some featured, each with fields to fill", () => {
    for (const tab of TEMPLATE_TABS) expect(filterTemplates(TEMPLATES, "", tab).length).toBeGreaterThan(0);
    expect(TEMPLATES.some((t) => t.featured)).toBe(true);
    for (const t of TEMPLATES) expect(t.fields.length).toBeGreaterThan(0);
    expect(findTemplate("blog-post")?.title).toBe("Blog Post");
    expect(findTemplate("nope")).toBeNull();
  });
});
