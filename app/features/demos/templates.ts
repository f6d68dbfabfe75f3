/** The template gallery's static data and its search (SPEC §2 /template-home, §3 Template). */

export const TEMPLATE_TABS = ["All", "Marketing", "Video", "Audio", "Image", "Content"] as const;
export type TemplateTab = (typeof TEMPLATE_TABS)[number];
export type TemplateCategory = Exclude<TemplateTab, "All">;
export const NO_TEMPLATES_FOUND = "No templates found matching your search";

export const TEMPLATE_THUMBNAILS = ["rocket", "megaphone", "clapperboard", "captions", "mic", "book", "camera", "palette", "pen", "newspaper"] as const;
export type TemplateThumbnailName = (typeof TEMPLATE_THUMBNAILS)[number];

export interface TemplateField {
  name: string;
  label: string;
  kind: "text" | "textarea" | "select";
  placeholder?: string;
  options?: string[];
}

export interface Template {
  id: string;
  title: string;
  description: string;
  /** The card's picture: an icon name (see TemplateThumbnail). */
  thumbnail: TemplateThumbnailName;
  category: TemplateCategory;
  tags: string[];
  uses: number;
  rating: number;
  estimatedTime: string;
  featured: boolean;
  fields: TemplateField[];
}

const tone: TemplateField = { name: "tone", label: "Tone", kind: "select", options: ["Friendly", "Professional", "Playful", "Bold"] };

export const TEMPLATES: Template[] = [
  {
    id: "product-launch-video",
    title: "Product Launch Video",
    description: "A 30-second promo video with voice-over and music for a new product.",
    thumbnail: "rocket",
    category: "Marketing",
    tags: ["promo", "video", "launch"],
    uses: 12840,
    rating: 4.8,
    estimatedTime: "5 min",
    featured: true,
    fields: [
      { name: "product", label: "Product name", kind: "text", placeholder: "Acme Smart Bottle" },
      { name: "benefit", label: "Key benefit", kind: "textarea", placeholder: "Keeps drinks cold for 24 hours" },
      tone,
    ],
  },
  {
    id: "social-media-pack",
    title: "Social Media Pack",
    description: "Captions and matching images for Instagram, LinkedIn and X in one go.",
    thumbnail: "megaphone",
    category: "Marketing",
    tags: ["social", "captions", "instagram"],
    uses: 9310,
    rating: 4.7,
    estimatedTime: "2 min",
    featured: true,
    fields: [
      { name: "topic", label: "Topic", kind: "text", placeholder: "Summer sale" },
      { name: "audience", label: "Audience", kind: "text", placeholder: "Young professionals" },
      tone,
    ],
  },
  {
    id: "explainer-video",
    title: "Explainer Video",
    description: "Turn a short script into an animated explainer with narration.",
    thumbnail: "clapperboard",
    category: "Video",
    tags: ["animation", "narration", "tutorial"],
    uses: 6120,
    rating: 4.6,
    estimatedTime: "8 min",
    featured: true,
    fields: [
      { name: "script", label: "Script", kind: "textarea", placeholder: "In this video we explain..." },
      { name: "style", label: "Visual style", kind: "select", options: ["Flat illustration", "3D", "Whiteboard"] },
    ],
  },
  {
    id: "video-subtitles",
    title: "Video Subtitles",
    description: "Transcribe a video and burn in translated subtitles.",
    thumbnail: "captions",
    category: "Video",
    tags: ["captions", "translation", "accessibility"],
    uses: 4380,
    rating: 4.5,
    estimatedTime: "4 min",
    featured: false,
    fields: [
      { name: "videoUrl", label: "Video URL", kind: "text", placeholder: "https://example.com/clip.mp4" },
      { name: "language", label: "Subtitle language", kind: "select", options: ["English", "Spanish", "German", "Japanese"] },
    ],
  },
  {
    id: "podcast-intro",
    title: "Podcast Intro",
    description: "A spoken intro with background music for your show.",
    thumbnail: "mic",
    category: "Audio",
    tags: ["podcast", "voice", "music"],
    uses: 3970,
    rating: 4.6,
    estimatedTime: "3 min",
    featured: false,
    fields: [
      { name: "show", label: "Show name", kind: "text", placeholder: "The Curious Engineer" },
      { name: "host", label: "Host name", kind: "text", placeholder: "Sam" },
      { name: "voice", label: "Voice", kind: "select", options: ["Warm", "Energetic", "Calm"] },
    ],
  },
  {
    id: "audiobook-narration",
    title: "Audiobook Narration",
    description: "Narrate a chapter with a natural voice and chapter markers.",
    thumbnail: "book",
    category: "Audio",
    tags: ["narration", "voice", "book"],
    uses: 2150,
    rating: 4.4,
    estimatedTime: "10 min",
    featured: false,
    fields: [
      { name: "chapter", label: "Chapter text", kind: "textarea", placeholder: "It was a bright cold day in April..." },
      { name: "voice", label: "Voice", kind: "select", options: ["Warm", "Deep", "Bright"] },
    ],
  },
  {
    id: "product-photos",
    title: "Product Photos",
    description: "Studio-quality product shots on any background.",
    thumbnail: "camera",
    category: "Image",
    tags: ["ecommerce", "photography", "background"],
    uses: 8740,
    rating: 4.9,
    estimatedTime: "2 min",
    featured: true,
    fields: [
      { name: "product", label: "Product description", kind: "text", placeholder: "White ceramic mug" },
      { name: "scene", label: "Scene", kind: "select", options: ["Studio white", "Kitchen table", "Outdoor picnic"] },
    ],
  },
  {
    id: "logo-concepts",
    title: "Logo Concepts",
    description: "Four logo directions for a brand from a short brief.",
    thumbnail: "palette",
    category: "Image",
    tags: ["branding", "design", "logo"],
    uses: 5030,
    rating: 4.3,
    estimatedTime: "3 min",
    featured: false,
    fields: [
      { name: "brand", label: "Brand name", kind: "text", placeholder: "Northwind" },
      { name: "values", label: "Brand values", kind: "textarea", placeholder: "Trustworthy, modern, outdoors" },
    ],
  },
  {
    id: "blog-post",
    title: "Blog Post",
    description: "An SEO-friendly article with headings, from a title and key points.",
    thumbnail: "pen",
    category: "Content",
    tags: ["writing", "seo", "article"],
    uses: 15220,
    rating: 4.7,
    estimatedTime: "4 min",
    featured: false,
    fields: [
      { name: "title", label: "Title", kind: "text", placeholder: "10 tips for remote teams" },
      { name: "points", label: "Key points", kind: "textarea", placeholder: "Async updates, clear owners, ..." },
      tone,
    ],
  },
  {
    id: "newsletter",
    title: "Email Newsletter",
    description: "A weekly newsletter with a summary, highlights and a call to action.",
    thumbnail: "newspaper",
    category: "Content",
    tags: ["email", "writing", "marketing"],
    uses: 7060,
    rating: 4.5,
    estimatedTime: "3 min",
    featured: false,
    fields: [
      { name: "highlights", label: "This week's highlights", kind: "textarea", placeholder: "New feature, customer story, event" },
      { name: "cta", label: "Call to action", kind: "text", placeholder: "Book a demo" },
    ],
  },
];

export function isTemplateTab(value: string | null | undefined): value is TemplateTab {
  return (TEMPLATE_TABS as readonly string[]).includes(value ?? "");
}

/** Search matches title, description and tags (case-insensitive, every word must match); the tab narrows by category. */
export function filterTemplates(templates: readonly Template[], query: string, tab: TemplateTab): Template[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return templates.filter((t) => {
    if (tab !== "All" && t.category !== tab) return false;
    const haystack = [t.title, t.description, ...t.tags].join(" ").toLowerCase();
    return words.every((w) => haystack.includes(w));
  });
}

export function findTemplate(id: string | null | undefined): Template | null {
  return TEMPLATES.find((t) => t.id === id) ?? null;
}
