import { Link } from "@remix-run/react";
import { ChevronLeft, ChevronRight } from "lucide-react";
import { useEffect, useRef, useState } from "react";

/**
 * Previous and Next of a keyset-paged list, as plain links (they work before JavaScript); a side with
 * no page is a disabled button. Nothing when the list fits on one page. `shown` says what the page
 * holds ("11 members, from Ada"): after Previous or Next, a screen reader is told it, as the rows
 * changed while focus stayed on the pager.
 */
export function Pager({ label, previous, next, shown }: { label: string; previous: string | null; next: string | null; shown: string }) {
  const nav = useRef<HTMLElement>(null);
  const followed = useRef(false);
  const [said, setSaid] = useState("");
  // Next to the last page (or Previous to the first) turns the link just used into a disabled button,
  // and focus would fall to the page: it goes to the link that is left.
  useEffect(() => {
    if (!followed.current) return;
    followed.current = false;
    const here = nav.current;
    if (here && !here.contains(document.activeElement)) here.querySelector<HTMLElement>("a")?.focus();
    // The same words again (another page of 50) still change the region, so they are said again.
    setSaid((before) => (before === shown ? `${shown}\u00a0` : shown));
  }, [previous, next, shown]);
  const follow = () => {
    followed.current = true;
  };
  if (previous === null && next === null) return null;
  return (
    <nav ref={nav} className="mt-2 flex max-w-full flex-col items-end self-end" aria-label={label}>
      <span role="status" className="sr-only">
        {said}
      </span>
      <div className="join max-w-full flex-wrap">
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
      </div>
    </nav>
  );
}

/** What a page of a list holds, for `Pager`'s `shown`: "11 members, from Ada", "1 ledger entry". */
export function rowsShown(count: number, noun: string, first?: string): string {
  const nouns = count === 1 ? noun : noun.endsWith("y") ? `${noun.slice(0, -1)}ies` : `${noun}s`;
  return `${count} ${nouns}${first ? `, from ${first}` : ""}`;
}
