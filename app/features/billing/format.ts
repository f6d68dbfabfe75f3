import { formatMoney } from "@contract/money";
import { formatDateTime } from "~/lib/datetime";

/** A balance with 2 decimals and $ (SPEC §9): `$1,234.50`, `-$3.10`. */
export const formatBalance = formatMoney;

/** A ledger change always carries its sign: `+$25.00`, `-$0.01` (SPEC §2, §9). */
export function formatChange(dollars: number): string {
  const rounded = Math.round(dollars * 100) / 100;
  return rounded < 0 ? formatMoney(rounded) : `+${formatMoney(rounded)}`;
}

/** Ledger timestamps in the viewer's 24-hour local format. */
export function formatLedgerTime(iso: string, timeZone: string): string {
  return formatDateTime(iso, timeZone);
}

/** `visa` ending 4242 → "Visa •••• 4242". */
export function describeCard(card: { brand: string | null; last4: string | null } | null): string {
  if (!card) return "Card on file";
  const brand = card.brand ? card.brand.charAt(0).toUpperCase() + card.brand.slice(1) : "Card";
  return card.last4 ? `${brand} •••• ${card.last4}` : brand;
}
