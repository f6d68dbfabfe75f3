import type { ReactNode } from "react";
import { beforeEach, describe, expect, it } from "vitest";
import { CreateTokenForm } from "~/features/tokens/CreateTokenForm";
import { staticPage } from "~/lib/static-page.testing";
import { forgetKeptMarkup, KeptMarkup, renderKeepingMarkup } from "./KeptMarkup";

// The server keeps a fragment's markup by its inputs and writes it into later documents (decision 0119).
// A document must read the same whichever way its fragments were written.

const rendered = async (url: string, organization: number, content: ReactNode, keepIf = () => true) =>
  renderKeepingMarkup(await staticPage(url, content, { organization, path: "tokens" }), keepIf);
const afresh = async (url: string, organization: number, content: ReactNode) => (await staticPage(url, content, { organization, path: "tokens" }))();

const form = (models = ["builtin"], lastResult?: Parameters<typeof CreateTokenForm>[0]["lastResult"]) => (
  <CreateTokenForm scopes={["chat", "models:read"]} models={models} lastResult={lastResult} />
);

let renders = 0;
function Counted({ children }: { children: ReactNode }) {
  renders++;
  return <>{children}</>;
}
const counted = (inputs: unknown) => (
  <KeptMarkup as="section" name="probe" inputs={inputs} className="card">
    <Counted>
      <p>{`Probe ${String(inputs)}`}</p>
    </Counted>
  </KeptMarkup>
);

beforeEach(() => {
  forgetKeptMarkup();
  renders = 0;
});

describe("kept markup", () => {
  it("writes a kept fragment as it was rendered, without rendering its content again", async () => {
    const fresh = await afresh("/tokens", 7, form());
    expect(await rendered("/tokens", 7, form())).toBe(fresh);
    expect(await rendered("/tokens", 7, form())).toBe(fresh);
    expect(fresh).toContain('name="pageOrganization" value="7"');
    expect(fresh).not.toContain("kept-markup");

    await rendered("/tokens", 7, counted("a"));
    await rendered("/tokens", 7, counted("a"));
    expect(renders).toBe(1);
    expect(await rendered("/tokens", 7, counted("a"))).toContain('<section class="card"><p>Probe a</p></section>');
  });

  it("keys a fragment by the page's address, its organization and its inputs", async () => {
    await rendered("/tokens", 7, form());
    for (const [url, organization, content] of [
      ["/tokens?edit=tok_1", 7, form()],
      ["/tokens", 8, form()],
      ["/tokens", 7, form(["builtin", "gpt-x"])],
    ] as const) {
      expect(await rendered(url, organization, content)).toBe(await afresh(url, organization, content));
    }
    expect(await rendered("/tokens?edit=tok_1", 7, form())).toContain('action="/tokens?edit=tok_1"');
    expect(await rendered("/tokens", 8, form())).toContain('name="pageOrganization" value="8"');
    expect(await rendered("/tokens", 7, form(["builtin", "gpt-x"]))).toContain('value="gpt-x"');
  });

  it("renders a refused form afresh, and keeps only the first state", async () => {
    await rendered("/tokens", 7, form());
    const refused = { status: "error" as const, initialValue: { expiry: "7", budgetAmount: "abc" }, error: { budgetAmount: ["Enter an amount in dollars"] } };
    const answer = await rendered("/tokens", 7, form(["builtin"], refused));
    expect(answer).toBe(await afresh("/tokens", 7, form(["builtin"], refused)));
    expect(answer).toContain("Enter an amount in dollars");
    expect(answer).toContain('value="abc"');
    expect(await rendered("/tokens", 7, form())).toBe(await afresh("/tokens", 7, form()));
  });

  it("keeps nothing from a document that is not sent as rendered", async () => {
    const html = await rendered("/tokens", 7, counted("b"), () => false);
    expect(html).not.toContain("kept-markup");
    await rendered("/tokens", 7, counted("b"));
    expect(renders).toBe(2);
  });

  it("renders every fragment afresh outside a render that keeps markup (a streamed page)", async () => {
    await rendered("/tokens", 7, counted("c"));
    expect(await afresh("/tokens", 7, counted("c"))).toContain("Probe c");
    expect(renders).toBe(2);
  });
});
