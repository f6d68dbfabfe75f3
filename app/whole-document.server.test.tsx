import type { EntryContext } from "@remix-run/node";
import { Suspense } from "react";
import { describe, expect, it } from "vitest";
import { renderWholeDocument } from "./whole-document.server";

/** The part of Remix's entry context the renderer reads: the page's data stream and the render's notes. */
function context(chunks: string[] | null): EntryContext {
  const bytes = new TextEncoder().encode(chunks?.join("") ?? "");
  // Split inside a multi-byte character, as a network stream may.
  const parts = chunks === null ? [] : [bytes.slice(0, 7), bytes.slice(7)];
  const serverHandoffStream =
    chunks === null ? undefined : new ReadableStream<Uint8Array>({ pull: (c) => (parts.length ? c.enqueue(parts.shift()!) : c.close()) });
  return { serverHandoffStream, renderMeta: {} } as unknown as EntryContext;
}

const pending = new Promise<never>(() => {});
function Waits(): never {
  throw pending;
}
function Fails(): never {
  throw new Error("broken");
}

describe("a document rendered whole", () => {
  it("is the doctype and the markup, with the page's data read first into what StreamTransfer renders from", async () => {
    const ctx = context(['[1,"Zoë"]\n']);
    const html = await renderWholeDocument(
      <html lang="en">
        <body>
          <p>Team</p>
        </body>
      </html>,
      ctx,
    );
    expect(html).toBe('<!DOCTYPE html><html lang="en"><body><p>Team</p></body></html>');
    const cache = ctx.renderMeta!.streamCache!;
    expect(Object.values(cache).map((chunk) => chunk.result)).toEqual([
      { done: false, value: '[1,"Zo' },
      { done: false, value: 'ë"]\n' },
      { done: true, value: "" },
    ]);
    // Remix's RemixServer takes a reader of its own afterwards.
    expect(await ctx.serverHandoffStream!.getReader().read()).toEqual({ done: true, value: undefined });
  });

  it("renders what its Suspense boundaries hold once nothing is left to wait for", async () => {
    const html = await renderWholeDocument(
      <Suspense fallback={<p>Loading</p>}>
        <p>Members</p>
      </Suspense>,
      context(null),
    );
    expect(html).toBe("<!DOCTYPE html><!--$--><p>Members</p><!--/$-->");
  });

  it("is not made when a boundary would be left for the browser: the page is streamed instead", async () => {
    for (const Child of [Waits, Fails]) {
      const html = await renderWholeDocument(
        <main>
          <Suspense fallback={<p>Loading</p>}>
            <Child />
          </Suspense>
        </main>,
        context(["[]\n"]),
      );
      expect(html).toBeUndefined();
    }
  });

  it("fails as the render does when a component fails outside any boundary", async () => {
    await expect(renderWholeDocument(<Fails />, context(["[]\n"]))).rejects.toThrow("broken");
  });
});
