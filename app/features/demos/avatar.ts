/** The avatar demo's rules and canned content (SPEC §2 /avatar-*, §4 Avatar state, §9). */

export const AVATAR_HINT_INTERVAL_MS = 15_000;
export const AVATAR_NUDGE_AFTER_MS = 20_000;
export const AVATAR_NUDGE_SHOWN_MS = 5_000;
export const AVATAR_REPLY_DELAY_MS = 1_000;

export type AvatarState = "idle" | "listening" | "thinking" | "speaking";

/** Listening when voice input is on, else thinking while a reply is pending, else speaking while audio plays, else idle. */
export function avatarState(s: { listening: boolean; pending: boolean; speaking: boolean }): AvatarState {
  if (s.listening) return "listening";
  if (s.pending) return "thinking";
  if (s.speaking) return "speaking";
  return "idle";
}

export const AVATAR_STATE_LABELS: Record<AvatarState, string> = {
  idle: "Ready",
  listening: "Listening...",
  thinking: "Thinking...",
  speaking: "Speaking...",
};

export const AVATAR_GREETING = "Hi, I'm Nova, your AI assistant. What would you like to create today?";

export const AVATAR_HINTS = [
  "Try asking: “Draw a cosy cabin in the snow”",
  "Tap the microphone and just talk to me",
  "Ask me to explain any AI model in plain words",
  "I can suggest a workflow for your next campaign",
];

export const AVATAR_NUDGES = ["Still there? Ask me anything — I'm happy to help.", "Need an idea? Ask me to draw something for you."];

const REPLIES = [
  "Great question! On this platform you can chain text, image, audio and video models into one workflow.",
  "Sure. I'd start with a short brief, then let a language model draft it and an image model illustrate it.",
  "Happy to help. Tell me a bit more about who this is for, and I'll tailor the answer.",
  "Here's a tip: templates are the fastest way to get a polished result on the first try.",
];

const IMAGE_WORDS = /\b(draw|image|picture|paint|sketch|illustrat\w*|photo)\b/i;

/** The canned reply for the n-th message; an image is "generated" when asked for, or at random otherwise. */
export function avatarReply(prompt: string, n: number, random: number): { text: string; image: boolean } {
  const image = IMAGE_WORDS.test(prompt) || random < 0.25;
  if (image) return { text: `Here is an image I made for “${prompt.trim().slice(0, 60)}”. Want me to try another style?`, image: true };
  return { text: REPLIES[n % REPLIES.length], image: false };
}
