import { describe, expect, it, vi } from "vitest";
import { CATEGORIES, playgroundPath } from "./playground";

/** A playground category page as the server renders it (SPEC §2 Playground). */
vi.mock("@remix-run/react", async () => await import("react-router-dom"));

const { staticPage } = await import("~/lib/static-page.testing");
const { default: PlaygroundCategoryPage } = await import("~/routes/_org.playground.$category._index");

describe("a playground category's use-case cards", () => {
  for (const category of CATEGORIES) {
    it(`each open /playground/${category.id}/{useCase}, a coming-soon one saying so (${category.id})`, async () => {
      const html = (await staticPage(`/playground/${category.id}`, <PlaygroundCategoryPage />, { path: "playground/:category" }))();
      const cards = [...html.matchAll(/<article[\s\S]*?<\/article>/g)].map(([card]) => card);
      expect(cards).toHaveLength(category.useCases.length);
      category.useCases.forEach((useCase, i) => {
        const links = [...cards[i].matchAll(/<a [^>]*>/g)].map(([tag]) => ({
          href: tag.match(/href="([^"]*)"/)?.[1],
          name: tag.match(/aria-label="([^"]*)"/)?.[1],
        }));
        expect(links, useCase.id).toEqual([
          { href: playgroundPath(category.id, useCase.id), name: useCase.generator ? `Open ${useCase.title}` : `Open ${useCase.title} (coming soon)` },
        ]);
        expect(cards[i].includes("Coming soon"), useCase.id).toBe(!useCase.generator);
      });
    });
  }
});
