import { Link } from "@remix-run/react";
import { ChevronLeft, ChevronRight } from "lucide-react";
import { useEffect, useRef } from "react";

/**
 * Previous and Next of a keyset-paged list, as plain links (they work before JavaScript); a side with
 * no page is a disabled button. Nothing when the list fits on one page.
 */
export function Pager({ label, previous, next }: { label: string; previous: string | null; next: string | null }) {
  const nav = useRef<HTMLElement>(null);
  const followed = useRef(false);
  // Next to the last page (or Previous to the first) turns the link just used into a disabled button,
  // and focus would fall to the page: it goes to the link that is left.
  useEffect(() => {
    if (!followed.current) return;
    followed.current = false;
    const here = nav.current;
    if (here && !here.contains(document.activeElement)) here.querySelector<HTMLElement>("a")?.focus();
  }, [previous, next]);
  const follow = () => {
    followed.current = true;
  };
  if (previous === null && next === null) return null;
  return (
    <nav ref={nav} className="join mt-2 max-w-full flex-wrap self-end" aria-label={label}>
      {previous !== null ? (
        <Link className="join-item btn btn-sm" to={previous} preventScrollReset onClick={follow}>
          <ChevronLeft className="size-4" aria-hidden /> Previous
        </Link>
      ) : (
        <button type="button" className="join-item btn btn-sm" disabled>
          <ChevronLeft className="size-4" aria-hidden /> Previous
        </button>
      )}
      {next !== null ? (
        <Link className="join-item btn btn-sm" to={next} preventScrollReset onClick={follow}>
          Next <ChevronRight className="size-4" aria-hidden />
        </Link>
      ) : (
        <button type="button" className="join-item btn btn-sm" disabled>
          Next <ChevronRight className="size-4" aria-hidden />
        </button>
      )}
    </nav>
  );
}
