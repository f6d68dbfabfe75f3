import type { ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { StaticRouter } from "react-router-dom/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { DailyUsage, UsageFigures } from "~/platform/usage";
import { EmptyUsage, UsageByMember, PeriodTabs, SourceTable, UsageError, UsageStats } from "./components";
import { DailyChart } from "./DailyChart";

// Links render through react-router, whose layout effects warn under the server renderer: not our concern here.
beforeAll(() => {
  vi.spyOn(console, "error").mockImplementation(() => {});
});
afterAll(() => vi.restoreAllMocks());

const render = (node: ReactNode) => renderToStaticMarkup(<StaticRouter location="/usage">{node}</StaticRouter>);
const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ")
    .trim();

const none: UsageFigures = { requests: 0, promptTokens: 0, completionTokens: 0, reasoningTokens: 0, cost: 0 };
const day = (date: string, figures: Partial<UsageFigures> = {}): DailyUsage => ({ date, ...none, ...figures });

describe("the usage screen's parts", () => {
  it("shows a load failure in an alert, with a way to try again", () => {
    const html = render(<UsageError message="Failed to load usage" retryTo="?days=7" />);
    expect(html).toMatch(/role="alert"[^>]*>/);
    expect(text(html)).toContain("Failed to load usage Try again");
    expect(html).toContain('href="/usage?days=7"');
  });

  it("says there is no usage in this period", () => {
    const html = render(<EmptyUsage />);
    expect(text(html)).toContain("No usage in this period.");
    expect(html).toContain('href="/chat"');
  });

  it("shows requests, tokens and cost (with $ and 2 decimals) in labelled cards", () => {
    const html = render(<UsageStats totals={{ requests: 1234, promptTokens: 1000, completionTokens: 500, reasoningTokens: 20, cost: 3.456 }} />);
    expect(html).toContain('aria-label="Requests"');
    expect(text(html)).toContain("Requests 1,234");
    expect(text(html)).toContain("Tokens 1,500 1,000 input · 500 output (20 reasoning)");
    expect(text(html)).toContain("Cost $3.46");
  });

  it("marks the chosen period and keeps the chart choice in the other periods' links", () => {
    const html = render(<PeriodTabs days={30} metric="cost" />);
    expect(html).toMatch(/href="\/usage\?days=30&amp;chart=cost"[^>]*aria-current="page"|aria-current="page"[^>]*href="\/usage\?days=30&amp;chart=cost"/);
    expect(html).toContain('href="/usage?days=7&amp;chart=cost"');
    expect(html.match(/aria-current="page"/g)).toHaveLength(1);
  });

  it("reads each day of the chart out, and scales bars to the busiest day", () => {
    const daily = [
      day("2025-01-13"),
      day("2025-01-14", { requests: 1, promptTokens: 10, completionTokens: 15 }),
      day("2025-01-15", { requests: 2, promptTokens: 40, completionTokens: 60 }),
    ];
    const html = render(<DailyChart daily={daily} days={7} metric="tokens" />);
    expect(html).toContain('aria-label="Daily tokens, 13 Jan 2025 to 15 Jan 2025 (UTC)"');
    expect(text(html)).toContain("13 Jan 2025: 0 tokens, 0 requests");
    expect(text(html)).toContain("14 Jan 2025: 25 tokens, 1 request");
    expect(text(html)).toContain("15 Jan 2025: 100 tokens, 2 requests");
    expect(html.match(/height:(\d+)%/g)).toEqual(["height:0%", "height:25%", "height:100%"]);
  });

  it("names the console and each API token in the per-source table", () => {
    const html = render(
      <SourceTable
        sources={[
          { kind: "console", token: null, ...none, requests: 3 },
          { kind: "api", token: "tok_abc123", ...none, requests: 1, cost: 0.5 },
        ]}
      />,
    );
    expect(text(html)).toContain("Console chat 3 0 $0.00");
    expect(text(html)).toContain("API token tok_abc123 1 0 $0.50");
  });

  it("says how many less busy rows were left out of a breakdown, and where they are", () => {
    const html = render(<UsageByMember members={[{ member: 7, name: "Ada", ...none, requests: 9 }]} more={1451} />);
    expect(text(html)).toContain("The busiest 1 are shown; 1,451 more members used less, and are in the CSV export.");
    expect(text(render(<UsageByMember members={[{ member: 7, name: "Ada", ...none, requests: 9 }]} />))).not.toContain("more members");
  });
});
