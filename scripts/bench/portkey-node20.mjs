// Portkey's gateway appends headers to the upstream's fetch Response when it passes a stream through,
// which Node 20's fetch refuses ("immutable"): its streamed replies fail here. Rewrapping each fetched
// response (body passed on as is, headers copied) is the smallest shim that lets the bench measure it.
const originalFetch = globalThis.fetch;
globalThis.fetch = async (...args) => {
  const response = await originalFetch(...args);
  return new Response(response.body, response);
};
