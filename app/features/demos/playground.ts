/** The playground's static route table (SPEC §2 Playground): categories, their use cases, and the generators. */

export const PLAYGROUND_DELAY_MS = 2_000;
export const CATEGORY_NOT_FOUND = "Category not found";
export const PLAYGROUND_NOT_FOUND = "Playground not found";
export const GENERATION_FAILED = "Failed to generate output. Please try again.";

export type CategoryId = "text" | "image" | "audio" | "video" | "workflows" | "data";
export type OutputKind = "text" | "image" | "audio" | "video" | "avatar";

export interface UseCase {
  id: string;
  title: string;
  description: string;
  models: string[];
  /** Only use cases with a generator open a playground; the others are listed as coming soon. */
  generator?: { output: OutputKind; placeholder: string; cta: string };
}

export interface Category {
  id: CategoryId;
  title: string;
  description: string;
  useCases: UseCase[];
}

export const CATEGORIES: Category[] = [
  {
    id: "text",
    title: "Text",
    description: "Chat, write, summarise and translate with language models.",
    useCases: [
      {
        id: "chat",
        title: "Chat",
        description: "Hold a conversation with an assistant that answers questions and drafts text.",
        models: ["Llama 3.1 70B", "Qwen 2.5 72B", "Mistral Large", "DeepSeek V3"],
        generator: { output: "text", placeholder: "Ask anything, e.g. 'Explain vector databases in two paragraphs'", cta: "Generate" },
      },
      { id: "summarize", title: "Summarise", description: "Turn long documents into short, accurate summaries.", models: ["Llama 3.1 8B", "Qwen 2.5 32B"] },
      { id: "translate", title: "Translate", description: "Translate text between more than 50 languages.", models: ["NLLB 200", "Qwen 2.5 72B"] },
    ],
  },
  {
    id: "image",
    title: "Image",
    description: "Create images from a description, or edit the ones you have.",
    useCases: [
      {
        id: "text-to-image",
        title: "Text to Image",
        description: "Describe a scene and get a picture in seconds.",
        models: ["FLUX.1 schnell", "SDXL", "Stable Diffusion 3.5"],
        generator: { output: "image", placeholder: "A lighthouse on a cliff at sunset, watercolour", cta: "Generate" },
      },
      { id: "upscale", title: "Upscale", description: "Enlarge images up to 4× while keeping details sharp.", models: ["Real-ESRGAN"] },
      { id: "background-removal", title: "Background Removal", description: "Cut out the subject of any photo.", models: ["RMBG 2.0"] },
    ],
  },
  {
    id: "audio",
    title: "Audio",
    description: "Give text a voice, transcribe speech and make music.",
    useCases: [
      {
        id: "text-to-speech",
        title: "Text to Speech",
        description: "Turn any text into natural speech in many voices.",
        models: ["Kokoro 82M", "XTTS v2"],
        generator: { output: "audio", placeholder: "Welcome to our platform! Let me show you around.", cta: "Generate" },
      },
      { id: "speech-to-text", title: "Speech to Text", description: "Transcribe meetings, calls and podcasts.", models: ["Whisper large v3", "Whisper turbo"] },
      { id: "music", title: "Music Generation", description: "Compose short royalty-free tracks from a mood.", models: ["MusicGen medium"] },
    ],
  },
  {
    id: "video",
    title: "Video",
    description: "Generate short clips from a prompt.",
    useCases: [
      {
        id: "text-to-video",
        title: "Text to Video",
        description: "Describe a shot and get a short video clip.",
        models: ["Wan 2.1", "HunyuanVideo", "LTX Video", "CogVideoX"],
        generator: { output: "video", placeholder: "A drone shot over a misty pine forest at dawn", cta: "Generate" },
      },
      { id: "image-to-video", title: "Image to Video", description: "Bring a still image to life.", models: ["Stable Video Diffusion"] },
    ],
  },
  {
    id: "workflows",
    title: "Workflows",
    description: "Chain several models into one result.",
    useCases: [
      {
        id: "text-to-avatar",
        title: "Text to Avatar",
        description: "Write a script and get a talking avatar video that reads it.",
        models: ["SadTalker", "LivePortrait"],
        generator: { output: "avatar", placeholder: "Hi! I'm your virtual presenter. Today we look at our new features.", cta: "Generate" },
      },
      {
        id: "podcast",
        title: "Podcast from Article",
        description: "Turn an article into a two-voice podcast episode.",
        models: ["Llama 3.1 70B", "Kokoro 82M"],
      },
    ],
  },
  {
    id: "data",
    title: "Data",
    description: "Extract, classify and analyse structured data.",
    useCases: [
      {
        id: "extraction",
        title: "Data Extraction",
        description: "Pull fields out of invoices, receipts and forms.",
        models: ["Qwen 2.5 VL", "Llama 3.2 Vision"],
      },
      { id: "classification", title: "Classification", description: "Sort text into your own categories.", models: ["DeBERTa v3", "Llama 3.1 8B"] },
    ],
  },
];

export function findCategory(categoryId: string | undefined): Category | null {
  return CATEGORIES.find((c) => c.id === categoryId) ?? null;
}

export interface Playground {
  category: Category;
  useCase: UseCase & { generator: NonNullable<UseCase["generator"]> };
}

/** The known combinations: text/chat, audio/text-to-speech, image/text-to-image, video/text-to-video, workflows/text-to-avatar. */
export function findPlayground(categoryId: string | undefined, useCaseId: string | undefined): Playground | null {
  const category = findCategory(categoryId);
  const useCase = category?.useCases.find((u) => u.id === useCaseId);
  if (!category || !useCase?.generator) return null;
  return { category, useCase: { ...useCase, generator: useCase.generator } };
}

export function playgroundPath(categoryId: string, useCaseId: string): string {
  return `/playground/${categoryId}/${useCaseId}`;
}

/** A model picker is tabs for three models or fewer, a dropdown otherwise. */
export function modelPickerKind(models: readonly string[]): "tabs" | "dropdown" {
  return models.length <= 3 ? "tabs" : "dropdown";
}

/** The canned output of a simulated generation (no server call). Throws on blank input. */
export function cannedOutput(output: OutputKind, model: string, prompt: string): string {
  const text = prompt.trim();
  if (!text) throw new Error("blank prompt");
  const short = text.length > 80 ? `${text.slice(0, 77)}...` : text;
  switch (output) {
    case "text":
      return `Here is a response from ${model} to "${short}".\n\nThis is a simulated answer: in the playground the model's reply is canned, so you can try the flow without spending credits. Connect an API token to get real completions from the same model.`;
    case "image":
      return `${model} generated a 1024×1024 image for "${short}". Seed 42, 4 steps, guidance 3.5.`;
    case "audio":
      return `${model} synthesised ${Math.max(1, Math.round(text.split(/\s+/).length / 2.5))} s of speech (24 kHz, mono) for "${short}".`;
    case "video":
      return `${model} rendered a 5 s clip at 720p, 24 fps, for "${short}".`;
    case "avatar":
      return `${model} produced a talking-avatar video reading your script (${text.split(/\s+/).length} words, about ${Math.max(1, Math.round(text.split(/\s+/).length / 2.5))} s).`;
  }
}
