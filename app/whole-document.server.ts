import type { EntryContext } from "@remix-run/node";
import type { ReactElement } from "react";
import { renderToString } from "react-dom/server";
import { renderKeepingMarkup } from "./components/KeptMarkup";

/**
 * A document rendered whole (entry.server.tsx) carries its markup beside its body, so the server can
 * write the string to the socket instead of reading it back out of a web stream (server/remix-handler.ts).
 * A global symbol: the app's build and the server's bundle each have their own copy of this module.
 */
const MARKUP = Symbol.for("ai-console.wholeDocument");

type WholeDocument = Response & { [MARKUP]?: string };

export function wholeDocumentResponse(html: string, init: ResponseInit): Response {
  const response: WholeDocument = new Response(html, init);
  response[MARKUP] = html;
  return response;
}

/** The markup of a document rendered whole, or `undefined` for any other answer (streamed, redirect, data). */
export function wholeDocumentMarkup(response: Response): string | undefined {
  return (response as WholeDocument)[MARKUP];
}

/**
 * The document as one string, when React can render it in one go: React's streaming renderer encodes
 * each piece of markup into bytes on its own (a fifth of a signed-in page's CPU time); its string
 * renderer only concatenates (decision 0087, fifth and twelfth passes).
 *
 * Remix's `StreamTransfer` writes the page's data for the browser (its `serverHandoffStream`) one chunk
 * per Suspense boundary, and would suspend the render at each read. A page without promises has all of
 * its data in that stream at once: it is read first, into the cache `StreamTransfer` looks in
 * (`renderMeta.streamCache`, by chunk), and nothing is left to wait for. Should a boundary still not
 * finish (a component that suspends, or fails inside a boundary), `renderToString` would leave it to the
 * browser; the page is streamed instead (`undefined`), where the boundary is waited for or its error
 * reported.
 */
export async function renderWholeDocument(app: ReactElement, context: EntryContext): Promise<string | undefined> {
  const stream = context.serverHandoffStream;
  if (stream && context.renderMeta) {
    const reader = stream.getReader();
    const decoder = new TextDecoder();
    const chunks: NonNullable<NonNullable<EntryContext["renderMeta"]>["streamCache"]> = {};
    for (let chunk = 0; ; chunk++) {
      const { done, value } = await reader.read();
      chunks[chunk] = Object.assign(Promise.resolve(), { result: { done, value: decoder.decode(value, { stream: true }) } });
      if (done) break;
    }
    // RemixServer takes its own reader of the (now finished) stream.
    reader.releaseLock();
    context.renderMeta.streamCache = chunks;
  }
  const sent = (html: string) => !html.includes(CLIENT_RENDERED_BOUNDARY);
  const html = renderKeepingMarkup(() => renderToString(app), sent);
  return sent(html) ? `<!DOCTYPE html>${html}` : undefined;
}

/** React 18's mark of a Suspense boundary the server left for the browser to render. */
const CLIENT_RENDERED_BOUNDARY = "<!--$!-->";
