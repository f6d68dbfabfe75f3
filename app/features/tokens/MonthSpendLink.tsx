import { Link } from "@remix-run/react";
import { formatMoney } from "@contract/money";

/** A token's spend this month, linking to /usage filtered to it (issue 16). */
export function MonthSpendLink({ publicId, spent }: { publicId: string; spent: number }) {
  return (
    <Link
      to={`/usage?${new URLSearchParams({ token: publicId })}`}
      className="link tabular-nums"
      aria-label={`Usage of ${publicId}: ${formatMoney(spent)} this month`}
    >
      {formatMoney(spent)}
    </Link>
  );
}
