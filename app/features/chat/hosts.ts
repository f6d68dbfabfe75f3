/**
 * The API host of the examples (SPEC §2): the app host with the app host prefix replaced by the API
 * host prefix (`app.example.com` → `api.example.com`); the same host when no prefix is configured or
 * the host does not start with it.
 */
export function apiHost(appHost: string, appPrefix: string, apiPrefix: string): string {
  if (!appPrefix || !appHost.startsWith(appPrefix)) return appHost;
  return apiPrefix + appHost.slice(appPrefix.length);
}

/** The API examples' origins for these console origins, where the prefixes make them differ. */
export function apiOrigins(origins: readonly string[], appPrefix: string, apiPrefix: string): string[] {
  return origins
    .map((origin) => {
      const url = new URL(origin);
      url.host = apiHost(url.host, appPrefix, apiPrefix);
      return url.origin;
    })
    .filter((origin) => !origins.includes(origin));
}

export function apiBaseUrl(appUrl: string, appPrefix: string, apiPrefix: string): string {
  const url = new URL(appUrl);
  return `${url.protocol}//${apiHost(url.host, appPrefix, apiPrefix)}/openai/v1`;
}

export const KEY_PLACEHOLDER = "{key}";

export interface Snippet {
  id: "curl" | "javascript" | "python";
  label: string;
  code: string;
}

/** cURL, JavaScript and Python for a streamed chat completion, runnable as shown once {key} is a real token. */
export function chatSnippets(baseUrl: string, model: string): Snippet[] {
  const endpoint = `${baseUrl}/chat/completions`;
  const body = { model, messages: [{ role: "user", content: "Hello!" }], stream: true };
  const json = JSON.stringify(body);
  const shellJson = json.replace(/'/g, `'\\''`);
  return [
    {
      id: "curl",
      label: "cURL",
      code: [
        `curl -N ${endpoint} \\`,
        `  -H "Authorization: Bearer ${KEY_PLACEHOLDER}" \\`,
        `  -H "Content-Type: application/json" \\`,
        `  -d '${shellJson}'`,
      ].join("\n"),
    },
    {
      id: "javascript",
      label: "JavaScript",
      code: [
        `// Node 18 or later: save as chat.mjs and run: node chat.mjs`,
        `const response = await fetch(${JSON.stringify(endpoint)}, {`,
        `  method: "POST",`,
        `  headers: { Authorization: "Bearer ${KEY_PLACEHOLDER}", "Content-Type": "application/json" },`,
        `  body: JSON.stringify(${JSON.stringify(body, null, 2).replace(/\n/g, "\n  ")}),`,
        `});`,
        `if (!response.ok) throw new Error(await response.text());`,
        `const decoder = new TextDecoder();`,
        `let buffer = "";`,
        `for await (const bytes of response.body) {`,
        `  buffer += decoder.decode(bytes, { stream: true });`,
        `  const lines = buffer.split("\\n");`,
        `  buffer = lines.pop();`,
        `  for (const line of lines) {`,
        `    if (!line.startsWith("data: ") || line === "data: [DONE]") continue;`,
        `    const chunk = JSON.parse(line.slice(6));`,
        `    if (chunk.error) {`,
        `      // The stream broke off (a model failure, a revoked token): the platform says why.`,
        `      console.error(\`\\nError: \${chunk.error.message}\`);`,
        `      process.exit(1);`,
        `    }`,
        `    process.stdout.write(chunk.choices?.[0]?.delta?.content ?? "");`,
        `  }`,
        `}`,
        `process.stdout.write("\\n");`,
      ].join("\n"),
    },
    {
      id: "python",
      label: "Python",
      code: [
        `import json, urllib.request`,
        ``,
        `request = urllib.request.Request(`,
        `    ${JSON.stringify(endpoint)},`,
        `    data=json.dumps(${pythonLiteral(body)}).encode(),`,
        `    headers={"Authorization": "Bearer ${KEY_PLACEHOLDER}", "Content-Type": "application/json"},`,
        `)`,
        `with urllib.request.urlopen(request) as response:`,
        `    for line in response:`,
        `        line = line.decode().strip()`,
        `        if line.startswith("data: ") and line != "data: [DONE]":`,
        `            chunk = json.loads(line[6:])`,
        `            if "error" in chunk:  # the stream broke off: the platform says why`,
        `                raise SystemExit(f"\\nError: {chunk['error'].get('message')}")`,
        `            if chunk.get("choices"):`,
        `                print(chunk["choices"][0]["delta"].get("content") or "", end="", flush=True)`,
        `print()`,
      ].join("\n"),
    },
  ];
}

/** A JSON value written as a Python literal (true/false/null become True/False/None). */
export function pythonLiteral(value: unknown): string {
  if (value === null || value === undefined) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "string" || typeof value === "number") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(pythonLiteral).join(", ")}]`;
  return `{${Object.entries(value as Record<string, unknown>)
    .map(([k, v]) => `${JSON.stringify(k)}: ${pythonLiteral(v)}`)
    .join(", ")}}`;
}
