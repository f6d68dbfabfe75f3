import type { LucideIcon } from "lucide-react";
import { BookOpen, Camera, Captions, Clapperboard, Megaphone, Mic, Newspaper, Palette, PenLine, Rocket } from "lucide-react";
import type { TemplateThumbnailName } from "./templates";

const icons: Record<TemplateThumbnailName, LucideIcon> = {
  rocket: Rocket,
  megaphone: Megaphone,
  clapperboard: Clapperboard,
  captions: Captions,
  mic: Mic,
  book: BookOpen,
  camera: Camera,
  palette: Palette,
  pen: PenLine,
  newspaper: Newspaper,
};

export function TemplateThumbnail({ name, className = "size-10" }: { name: TemplateThumbnailName; className?: string }) {
  const Icon = icons[name];
  return <Icon className={className} aria-hidden />;
}
