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
