/** The six demo tasks of /task-home (SPEC §2, §3 Task). */

export interface Task {
  id: string;
  title: string;
  description: string;
  category: string;
  steps: string[];
  models: string[];
  estimatedTime: string;
  /** A daisyUI theme colour for the card's accent. */
  colour: "primary" | "secondary" | "accent" | "info" | "success" | "warning";
}

export const TASKS: Task[] = [
  {
    id: "marketing-video",
    title: "Create a Marketing Video",
    description: "Write a script, generate scenes and add a voice-over for a short promo.",
    category: "Video",
    steps: ["Write the script", "Generate the scenes", "Record the voice-over", "Edit and export"],
    models: ["Llama 3.1 70B", "Wan 2.1", "Kokoro 82M"],
    estimatedTime: "10 min",
    colour: "primary",
  },
  {
    id: "product-images",
    title: "Generate Product Images",
    description: "Studio-quality product shots in several styles and backgrounds.",
    category: "Image",
    steps: ["Describe the product", "Generate variations", "Remove backgrounds", "Upscale the best shots"],
    models: ["FLUX.1 schnell", "RMBG 2.0", "Real-ESRGAN"],
    estimatedTime: "5 min",
    colour: "secondary",
  },
  {
    id: "podcast-summary",
    title: "Transcribe and Summarise a Podcast",
    description: "Get a full transcript, chapter marks and a short summary of an episode.",
    category: "Audio",
    steps: ["Upload the episode", "Transcribe the audio", "Detect chapters", "Write the summary"],
    models: ["Whisper large v3", "Llama 3.1 70B"],
    estimatedTime: "8 min",
    colour: "accent",
  },
  {
    id: "translate-content",
    title: "Translate Content",
    description: "Translate documents into several languages while keeping the formatting.",
    category: "Text",
    steps: ["Paste or upload the content", "Choose the languages", "Translate", "Review the result"],
    models: ["NLLB 200", "Qwen 2.5 72B"],
    estimatedTime: "3 min",
    colour: "info",
  },
  {
    id: "enhance-images",
    title: "Enhance and Upscale Images",
    description: "Fix lighting, remove noise and enlarge photos up to 4×.",
    category: "Image",
    steps: ["Upload the images", "Enhance colour and light", "Remove noise", "Upscale 4×"],
    models: ["Real-ESRGAN", "SDXL Refiner"],
    estimatedTime: "4 min",
    colour: "success",
  },
  {
    id: "social-posts",
    title: "Write Social Media Posts",
    description: "A week of posts with captions, hashtags and matching images.",
    category: "Content",
    steps: ["Set the topic and tone", "Draft the captions", "Suggest hashtags", "Generate matching images"],
    models: ["Llama 3.1 8B", "FLUX.1 schnell"],
    estimatedTime: "5 min",
    colour: "warning",
  },
];

export function findTask(id: string | null | undefined): Task | null {
  return TASKS.find((t) => t.id === id) ?? null;
}
