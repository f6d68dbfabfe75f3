import { Link } from "@remix-run/react";
import { formatMoney } from "@contract/money";
import { usageSearch } from "~/features/usage/format";

/** The usage period the link opens: the link's text names it, so the two can't drift apart. */
const USAGE_DAYS = 30;

/**
 * A token's spend this UTC month, and a link to its usage (issue 16). /usage shows whole days back
 * from today, not calendar months, so the link is named for what it opens rather than being the
 * month's figure, whose total there would differ (audit O8). `null`: the month's spend could not be
 * loaded, so it is not shown as $0.00.
 */
export function MonthSpend({ publicId, spent }: { publicId: string; spent: number | null }) {
  return (
    <div className="flex flex-col items-start">
      {spent === null ? (
        <span className="text-base-content/50" title="This month's spend could not be loaded">
          <span aria-hidden>—</span>
          <span className="sr-only">Unknown</span>
        </span>
      ) : (
        <span className="tabular-nums">{formatMoney(spent)}</span>
      )}
      <Link
        to={`/usage${usageSearch(USAGE_DAYS, "tokens", { token: publicId })}`}
        className="link text-xs"
        aria-label={`Usage of ${publicId} in the last ${USAGE_DAYS} days`}
      >
        Last {USAGE_DAYS} days
      </Link>
    </div>
  );
}
