import { memo } from "react";
import ReactMarkdown from "react-markdown";
import type { Components } from "react-markdown";
import remarkGfm from "remark-gfm";

/** GitHub's markdown, which models write: tables, strikethrough, task lists and bare URLs as links (decision 0129). */
const remarkPlugins = [remarkGfm];

/**
 * Markdown of a reply, with GitHub's extensions. Raw HTML is never rendered: with no rehype-raw,
 * react-markdown turns it into text, so `List<String>` or `a<b and c>d` read as written and a
 * `<script>` shows as inert text (skipHtml would delete such text outright). Links open safely. An
 * image is shown as a link named by its alt text, never loaded: the page's CSP would block another
 * site's image (a broken icon), and a same-origin address would be fetched with the user's cookies.
 * Tables scroll sideways on a phone rather than break their words.
 */
const components: Components = {
  p: ({ children }) => <p className="mb-2 last:mb-0 whitespace-pre-wrap">{children}</p>,
  ul: ({ children }) => <ul className="mb-2 list-disc pl-6">{children}</ul>,
  ol: ({ children }) => <ol className="mb-2 list-decimal pl-6">{children}</ol>,
  a: ({ children, href }) => (
    <a href={href} className="link link-primary" target="_blank" rel="noopener noreferrer nofollow">
      {children}
    </a>
  ),
  pre: ({ children }) => (
    <pre tabIndex={0} className="my-2 overflow-x-auto rounded-box bg-neutral p-3 text-sm text-neutral-content">
      {children}
    </pre>
  ),
  code: ({ children, className }) =>
    className ? <code className={`font-mono ${className}`}>{children}</code> : <code className="rounded bg-base-300 px-1 font-mono text-sm">{children}</code>,
  img: ({ src, alt }) =>
    typeof src === "string" && src ? (
      <a href={src} className="link link-primary" target="_blank" rel="noopener noreferrer nofollow">
        {alt || src}
      </a>
    ) : (
      <>{alt}</>
    ),
  table: ({ children }) => (
    <div tabIndex={0} className="my-2 max-w-full overflow-x-auto">
      <table className="table table-sm w-auto [overflow-wrap:normal]">{children}</table>
    </div>
  ),
  h1: ({ children }) => <h3 className="mb-2 text-lg font-bold">{children}</h3>,
  h2: ({ children }) => <h4 className="mb-2 font-bold">{children}</h4>,
  h3: ({ children }) => <h5 className="mb-2 font-semibold">{children}</h5>,
  blockquote: ({ children }) => <blockquote className="mb-2 border-l-4 border-base-300 pl-3 italic">{children}</blockquote>,
};

/** Parsed again only when its text changes. */
export const Markdown = memo(function Markdown({ text }: { text: string }) {
  return (
    <ReactMarkdown components={components} remarkPlugins={remarkPlugins}>
      {text}
    </ReactMarkdown>
  );
});
