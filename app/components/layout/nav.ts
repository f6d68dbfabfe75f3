import type { LucideIcon } from "lucide-react";
import {
  Boxes,
  Building2,
  Code2,
  CreditCard,
  Image,
  KeyRound,
  LayoutGrid,
  ListChecks,
  MessageSquare,
  Shapes,
  Sparkles,
  SquareStack,
  UserRound,
  Users,
  Video,
  BarChart3,
  Cpu,
  ScrollText,
} from "lucide-react";

export interface NavItem {
  to: string;
  label: string;
  icon: LucideIcon;
  /** Shown to the organization's admins only (the platform answers members 403 anyway). */
  adminOnly?: boolean;
  /** The later pages of this item's flow that live outside its path, so the item stays highlighted there. */
  flow?: string[];
}

/** The sidebar of SPEC §2, in its order; the System section shows only in organization 1. */
export const homeNav: NavItem[] = [
  { to: "/chat", label: "Chat", icon: MessageSquare },
  { to: "/video-generation", label: "Video Generation", icon: Video },
  { to: "/image-edit", label: "Image Edit", icon: Image },
  { to: "/synthesis-home", label: "Synthesis", icon: Sparkles },
  { to: "/", label: "Home Categories", icon: LayoutGrid, flow: ["/playground"] },
  { to: "/multimodal-home", label: "Multimodal", icon: Shapes, flow: ["/multimodal-chat"] },
  { to: "/avatar-home", label: "Avatar", icon: UserRound, flow: ["/avatar-chat"] },
  { to: "/task-home", label: "Tasks", icon: ListChecks, flow: ["/task-execution"] },
  { to: "/template-home", label: "Templates", icon: SquareStack, flow: ["/template-editor"] },
  { to: "/api-home", label: "API", icon: Code2 },
  { to: "/models", label: "Models", icon: Boxes },
];

export const organizationNav: NavItem[] = [
  { to: "/team", label: "Team", icon: Users },
  { to: "/tokens", label: "API Tokens", icon: KeyRound },
  { to: "/usage", label: "Usage", icon: BarChart3 },
  { to: "/billing", label: "Billing", icon: CreditCard },
  { to: "/audit", label: "Audit Log", icon: ScrollText, adminOnly: true },
];

/** What members see of the Organization section. */
export const memberOrganizationNav: NavItem[] = organizationNav.filter((item) => !item.adminOnly);

export const systemNav: NavItem[] = [
  { to: "/model-editor", label: "Model Editor", icon: Cpu },
  { to: "/system/orgs", label: "Org Editor", icon: Building2 },
];
