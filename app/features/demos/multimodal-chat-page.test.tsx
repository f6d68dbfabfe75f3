import { describe, expect, it, vi } from "vitest";

/** The /multimodal-chat page as the server renders it: what a browser without JavaScript gets. */
vi.mock("@remix-run/react", async () => await import("react-router-dom"));

const { staticPage } = await import("~/lib/static-page.testing");
const { default: MultimodalChatPage } = await import("~/routes/_org.multimodal-chat");

/** The modality toggles: each one's label, pressed state, and the URL a browser submits for it. */
async function toggles(url: string) {
  const html = (await staticPage(url, <MultimodalChatPage />))();
  const doc = html.match(/<form[^>]*aria-label="Modalities"[^>]*>([\s\S]*?)<\/form>/);
  expect(doc, "a form holds the modality toggles").not.toBeNull();
  const form = doc![0];
  expect(form).toMatch(/method="get"/i);
  const hidden = [...form.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)"/g)].map((m) => [m[1], m[2]]);
  return [...form.matchAll(/<button([^>]*)>([^<]*)<\/button>/g)].map(([, attrs, label]) => {
    const attr = (name: string) => attrs.match(new RegExp(`${name}="([^"]*)"`))?.[1];
    expect(attr("type"), label).toBe("submit");
    const submitted = new URLSearchParams(hidden);
    submitted.append(attr("name")!, attr("value")!.replace(/&amp;/g, "&"));
    return { label, pressed: attr("aria-pressed"), submits: submitted.toString() };
  });
}

describe("/multimodal-chat modality toggles without JavaScript", () => {
  it("submit the page again with that modality toggled in ?modalities=, the prompt kept", async () => {
    expect(await toggles("/multimodal-chat?prompt=Paint%20a%20fox&modalities=text,image")).toEqual([
      { label: "text", pressed: "true", submits: "prompt=Paint+a+fox&modalities=image" },
      { label: "image", pressed: "true", submits: "prompt=Paint+a+fox&modalities=text" },
      { label: "video", pressed: "false", submits: "prompt=Paint+a+fox&modalities=text%2Cimage%2Cvideo" },
      { label: "audio", pressed: "false", submits: "prompt=Paint+a+fox&modalities=text%2Cimage%2Caudio" },
    ]);
  });

  it("start from all four when the URL names none", async () => {
    expect((await toggles("/multimodal-chat")).map((t) => [t.label, t.pressed, t.submits])).toEqual([
      ["text", "true", "modalities=image%2Cvideo%2Caudio"],
      ["image", "true", "modalities=text%2Cvideo%2Caudio"],
      ["video", "true", "modalities=text%2Cimage%2Caudio"],
      ["audio", "true", "modalities=text%2Cimage%2Cvideo"],
    ]);
  });
});
