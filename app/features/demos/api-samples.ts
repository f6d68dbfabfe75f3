import type { Snippet } from "~/features/chat/hosts";
import { chatSnippets, KEY_PLACEHOLDER } from "~/features/chat/hosts";

/**
 * Code samples for /api-home: the public API paths of SPEC §7 with a bearer key. The chat samples are
 * /chat's API examples (`chatSnippets`), run as shown against this install (its base URL and one of
 * its models); the image and audio samples are examples of the API's shape that this install does not
 * serve (`servedHere: false`, said on screen).
 */

export const API_STATS = [
  { label: "Uptime", value: "99.9%", note: "over the last 90 days" },
  { label: "Latency", value: "< 2 s", note: "under 2 s to first token" },
  { label: "Cost savings", value: "50%", note: "compared with closed APIs" },
  { label: "Models", value: "100+", note: "text, image, audio and video" },
] as const;

export const SAMPLE_LANGUAGES = ["curl", "python", "javascript"] as const satisfies readonly Snippet["id"][];
export type SampleLanguage = (typeof SAMPLE_LANGUAGES)[number];

export const ENDPOINTS = [
  { id: "chat", title: "Chat completions", method: "POST", path: "/v1/chat/completions", servedHere: true },
  { id: "images", title: "Image generations", method: "POST", path: "/v1/images/generations", servedHere: false },
  { id: "transcriptions", title: "Audio transcriptions", method: "POST", path: "/v1/audio/transcriptions", servedHere: false },
] as const;
export type EndpointId = (typeof ENDPOINTS)[number]["id"];

/** The model the chat sample names when the install has none to offer. */
export const DEFAULT_SAMPLE_MODEL = "builtin";

/** The chat sample's model: `builtin` (free, always there) when served, else the first model. */
export function sampleChatModel(models: readonly { name: string }[]): string {
  return models.find((m) => m.name === DEFAULT_SAMPLE_MODEL)?.name ?? models[0]?.name ?? DEFAULT_SAMPLE_MODEL;
}

/** The sample for one endpoint in one language; `baseUrl` ends before `/v1`; `chatModel` names a model of this install. */
export function endpointSample(endpoint: EndpointId, language: SampleLanguage, baseUrl: string, chatModel: string): string {
  const base = baseUrl.replace(/\/$/, "");
  if (endpoint === "chat") return chatSnippets(`${base}/v1`, chatModel).find((s) => s.id === language)!.code;
  return apiSample(endpoint, language, base);
}

/** The samples of the endpoints this install does not serve; `base` ends before `/v1`. */
function apiSample(endpoint: Exclude<EndpointId, "chat">, language: SampleLanguage, base: string): string {
  switch (endpoint) {
    case "images":
      if (language === "curl")
        return `curl ${base}/v1/images/generations \\
  -H "Authorization: Bearer ${KEY_PLACEHOLDER}" \\
  -H "Content-Type: application/json" \\
  -d '{
    "model": "flux-1-schnell",
    "prompt": "A lighthouse at sunset, watercolour",
    "n": 1,
    "size": "1024x1024"
  }'`;
      if (language === "python")
        return `from openai import OpenAI

client = OpenAI(base_url="${base}/v1", api_key="${KEY_PLACEHOLDER}")

result = client.images.generate(
    model="flux-1-schnell",
    prompt="A lighthouse at sunset, watercolour",
    n=1,
    size="1024x1024",
)
print(result.data[0].url)`;
      return `const response = await fetch("${base}/v1/images/generations", {
  method: "POST",
  headers: {
    Authorization: "Bearer ${KEY_PLACEHOLDER}",
    "Content-Type": "application/json",
  },
  body: JSON.stringify({
    model: "flux-1-schnell",
    prompt: "A lighthouse at sunset, watercolour",
    n: 1,
    size: "1024x1024",
  }),
});`;
    case "transcriptions":
      if (language === "curl")
        return `curl ${base}/v1/audio/transcriptions \\
  -H "Authorization: Bearer ${KEY_PLACEHOLDER}" \\
  -F file="@meeting.mp3" \\
  -F model="whisper-large-v3"`;
      if (language === "python")
        return `from openai import OpenAI

client = OpenAI(base_url="${base}/v1", api_key="${KEY_PLACEHOLDER}")

with open("meeting.mp3", "rb") as audio:
    transcript = client.audio.transcriptions.create(file=audio, model="whisper-large-v3")
print(transcript.text)`;
      return `const form = new FormData();
form.append("file", audioFile); // a File or Blob, e.g. from an <input type="file">
form.append("model", "whisper-large-v3");

const response = await fetch("${base}/v1/audio/transcriptions", {
  method: "POST",
  headers: { Authorization: "Bearer ${KEY_PLACEHOLDER}" },
  body: form,
});`;
  }
}
