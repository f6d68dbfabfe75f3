import { Link } from "@remix-run/react";
import { ChevronLeft, ChevronRight } from "lucide-react";

/**
 * Previous and Next of a keyset-paged list, as plain links (they work before JavaScript); a side with
 * no page is a disabled button. Nothing when the list fits on one page.
 */
export function Pager({ label, previous, next }: { label: string; previous: string | null; next: string | null }) {
  if (previous === null && next === null) return null;
  return (
    <nav className="join mt-2 self-end" aria-label={label}>
      {previous !== null ? (
        <Link className="join-item btn btn-sm" to={previous} preventScrollReset>
          <ChevronLeft className="size-4" aria-hidden /> Previous
        </Link>
      ) : (
        <button type="button" className="join-item btn btn-sm" disabled>
          <ChevronLeft className="size-4" aria-hidden /> Previous
        </button>
      )}
      {next !== null ? (
        <Link className="join-item btn btn-sm" to={next} preventScrollReset>
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
