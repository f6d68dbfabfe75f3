import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import ImageEditor, { EDIT_PRESETS } from "./ImageEditor";

describe("the image editor's Style radio group", () => {
  it("is one Tab stop: the checked style, the others reached with the arrow keys", () => {
    const html = renderToStaticMarkup(<ImageEditor />);
    const radios = [...html.matchAll(/<button[^>]*role="radio"[^>]*>([^<]*)<\/button>/g)].map(([tag, label]) => ({
      label,
      checked: /aria-checked="true"/.test(tag),
      tabbable: !/tabindex="-1"/.test(tag),
    }));
    expect(radios.map((r) => r.label)).toEqual(EDIT_PRESETS.map((p) => p.label.replace("&", "&amp;")));
    expect(radios.filter((r) => r.tabbable)).toEqual([{ label: "Enhance", checked: true, tabbable: true }]);
  });
});
