import { describe, expect, it, vi } from "vitest";
import { staticPage } from "~/lib/static-page.testing";

const data = vi.hoisted(() => ({ loader: undefined as unknown, action: undefined as unknown }));
vi.mock("@remix-run/react", async () => ({
  ...(await import("react-router-dom")),
  useLoaderData: () => data.loader,
  useActionData: () => data.action,
}));

const { default: ModelEditorPage } = await import("~/routes/_org._system.model-editor");

describe("the model editor after a save refused because the person is no longer an admin", () => {
  it("shows the platform's refusal though the form went with the role", async () => {
    data.loader = { models: [], statuses: {}, metrics: null, alerts: [], loadError: null, canEdit: false, editing: null, missing: null };
    data.action = { intent: "save", mode: "edit", name: "builtin", message: "Only admins can do this", result: { status: "error", error: { "": ["x"] } } };
    const html = (await staticPage("/model-editor?model=builtin", <ModelEditorPage />))();
    expect(html).toMatch(/role="alert"[^>]*>Only admins can do this</);
    expect(html).toContain("Only admins of the system organization can change models.");
    expect(html).not.toContain('aria-label="Edit builtin"');
  });
});
