import { renderToStaticMarkup } from "react-dom/server";
import { StaticRouter } from "react-router-dom/server";
import { describe, expect, it } from "vitest";
import { MonthSpend } from "./MonthSpend";

describe("a token's spend this month on /tokens", () => {
  it("shows the month's figure, and a link named for the 30 days it opens", () => {
    const html = renderToStaticMarkup(
      <StaticRouter location="/tokens">
        <MonthSpend publicId="tok_a" spent={1.005} />
      </StaticRouter>,
    );
    expect(html).toContain(">$1.01</span>");
    expect(html).toContain('href="/usage?days=30&amp;token=tok_a"');
    expect(html).toContain('aria-label="Usage of tok_a in the last 30 days"');
    expect(html).toContain(">Last 30 days</a>");
  });
});
