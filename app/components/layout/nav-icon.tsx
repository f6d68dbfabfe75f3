import type { LucideIcon } from "lucide-react";
import type { ReactElement } from "react";
import { createElement } from "react";

/** What lucide keeps for an icon (lucide-react 1.x: the props its component hands to its base icon). */
interface IconData {
  name?: string;
  size?: number;
  width?: number;
  height?: number;
  aliases?: unknown[];
  node: [string, Record<string, string>][];
}

const built = new WeakMap<LucideIcon, ReactElement>();

/**
 * `<Icon className="size-4" aria-hidden />`, the same SVG markup, built once per icon: lucide works
 * out its attributes and classes on every render, for each of the sidebar's icons on every page
 * (decision 0087). An icon whose data can't be read is rendered by lucide itself.
 */
export function navIcon(Icon: LucideIcon): ReactElement {
  let element = built.get(Icon);
  if (!element) {
    element = build(Icon);
    built.set(Icon, element);
  }
  return element;
}

function build(Icon: LucideIcon): ReactElement {
  // The icon's component only wraps lucide's base icon with the icon's data: no hooks run here.
  const render = (Icon as unknown as { render?: (props: object, ref: null) => ReactElement<{ icon?: IconData }> }).render;
  const data = render?.({}, null)?.props.icon;
  if (!data || !Array.isArray(data.node)) return createElement(Icon, { className: "size-4", "aria-hidden": true });
  const aliases = (data.aliases ?? []).filter((a): a is string => typeof a === "string" && a.trim() !== "").map((a) => `lucide-${a}`);
  const className = [...new Set(["lucide", ...(data.name ? [`lucide-${data.name}`] : []), ...aliases, "size-4"])].join(" ");
  const width = data.size ?? data.width ?? 24;
  const height = data.size ?? data.height ?? 24;
  return createElement(
    "svg",
    {
      xmlns: "http://www.w3.org/2000/svg",
      width: 24,
      height: 24,
      viewBox: `0 0 ${width} ${height}`,
      fill: "none",
      stroke: "currentColor",
      strokeWidth: 2,
      strokeLinecap: "round",
      strokeLinejoin: "round",
      className,
      "aria-hidden": true,
    },
    data.node.map(([tag, attrs]) => createElement(tag, attrs)),
  );
}
