import { describe, expect, it } from "vitest";
import { CATEGORIES, cannedOutput, findCategory, findPlayground, modelPickerKind } from "./playground";

describe("the playground route table", () => {
  it("knows the six categories and nothing else", () => {
    expect(CATEGORIES.map((c) => c.id)).toEqual(["text", "image", "audio", "video", "workflows", "data"]);
    expect(findCategory("image")?.title).toBe("Image");
    expect(findCategory("chat")).toBeNull();
    expect(findCategory(undefined)).toBeNull();
  });

  it("opens exactly the five known category/use-case combinations", () => {
    const known = CATEGORIES.flatMap((c) => c.useCases.filter((u) => findPlayground(c.id, u.id)).map((u) => `${c.id}/${u.id}`));
    expect(known.sort()).toEqual(["audio/text-to-speech", "image/text-to-image", "text/chat", "video/text-to-video", "workflows/text-to-avatar"]);
  });

  it("answers no playground for a wrong pairing, an unknown use case or an unknown category", () => {
    expect(findPlayground("image", "chat")).toBeNull();
    expect(findPlayground("text", "summarize")).toBeNull();
    expect(findPlayground("nope", "chat")).toBeNull();
  });

  it("gives every use case a title, a description and model chips", () => {
    for (const u of CATEGORIES.flatMap((c) => c.useCases)) {
      expect(u.title && u.description).toBeTruthy();
      expect(u.models.length).toBeGreaterThan(0);
    }
  });

  it("uses tabs for three models or fewer and a dropdown otherwise", () => {
    expect(modelPickerKind(["a", "b", "c"])).toBe("tabs");
    expect(modelPickerKind(["a"])).toBe("tabs");
    expect(modelPickerKind(["a", "b", "c", "d"])).toBe("dropdown");
    expect(modelPickerKind(findPlayground("text", "chat")!.useCase.models)).toBe("dropdown");
    expect(modelPickerKind(findPlayground("image", "text-to-image")!.useCase.models)).toBe("tabs");
  });

  it("makes a canned output that names the model and the prompt, and refuses a blank prompt", () => {
    expect(cannedOutput("text", "Model X", "Hello there")).toContain("Model X");
    expect(cannedOutput("image", "Model X", "A red fox")).toContain("A red fox");
    expect(() => cannedOutput("text", "Model X", "   ")).toThrow();
  });
});
