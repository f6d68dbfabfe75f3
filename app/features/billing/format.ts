import { formatDateTime } from "~/lib/datetime";

const twoDecimals = new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** A balance with 2 decimals and $ (SPEC §9): `$1,234.50`, `-$3.10`. */
export function formatBalance(dollars: number): string {
  const rounded = Math.round(dollars * 100) / 100;
  const text = `$${twoDecimals.format(Math.abs(rounded))}`;
  return rounded < 0 ? `-${text}` : text;
}

/** A ledger change always carries its sign: `+$25.00`, `-$0.01` (SPEC §2, §9). */
export function formatChange(dollars: number): string {
  const rounded = Math.round(dollars * 100) / 100;
  return `${rounded < 0 ? "-" : "+"}$${twoDecimals.format(Math.abs(rounded))}`;
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
