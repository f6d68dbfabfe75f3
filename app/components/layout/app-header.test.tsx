import { describe, expect, it } from "vitest";
import { staticPage } from "~/lib/static-page.testing";
import { AppHeader } from "./AppHeader";

// What a browser receives: the server's markup as UTF-8 bytes, read back. A lone surrogate can't be
// written in UTF-8 and arrives as U+FFFD, where the browser's own render has the surrogate: React's
// hydration then fails on every page (error #418).
const headerOf = async (name: string, email = "person@example.test") =>
  new TextDecoder().decode(new TextEncoder().encode((await staticPage("/team", <AppHeader title="Team" user={{ name, email }} />))()));

const avatarInitial = (html: string) => /<span class="grid size-9 [^"]*">([^<]*)<\/span>/.exec(html)?.[1];

describe("the header's avatar", () => {
  it("shows the name's first character whole, emoji and letters outside the BMP included", async () => {
    for (const [name, initial] of [
      ["😀 Ana", "😀"],
      ["👨‍👩‍👧‍👦 Shlomo", "👨‍👩‍👧‍👦"],
      ["𠮷野家", "𠮷"],
      ["  émile", "É"],
      ["ada", "A"],
    ]) {
      const html = await headerOf(name);
      expect(html, name).not.toContain("\uFFFD");
      expect(avatarInitial(html), name).toBe(initial);
      expect(name.trim().toUpperCase().startsWith(initial), name).toBe(true);
    }
  });

  it("falls back to the email, then to a question mark", async () => {
    expect(avatarInitial(await headerOf("", "🦊@example.test"))).toBe("🦊");
    expect(avatarInitial(await headerOf("  ", ""))).toBe("?");
  });
});

describe("the account menu", () => {
  it("can show a long name and email in full, and cuts a right-to-left name at its end", async () => {
    const name = "שירותי ענן ".repeat(8).trim();
    const email = `${"a".repeat(80)}@example.test`;
    const html = await headerOf(name, email);
    expect(html).toContain(`<p class="truncate font-semibold" title="${name}" dir="auto">${name}</p>`);
    expect(html).toContain(`<p class="truncate text-sm text-base-content/70" title="${email}" dir="auto">${email}</p>`);
  });
});
