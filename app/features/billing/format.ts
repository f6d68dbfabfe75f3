import { exactDollars, formatMoney } from "@contract/money";

/**
 * What an invoice organization's balance means (audit O2): below zero it is what usage has accrued since
 * the last invoice (SPEC §2 shows its absolute value); above zero it is credit (left from prepaid days, or
 * a payment recorded with grant-credit) that usage draws on first, so nothing is owed yet. Shown as
 * owed, credit would read as a debt and fall as usage grew.
 */
export function sinceLastInvoice(balance: number): { owed: number; credit: number } {
  return { owed: Math.max(0, -balance), credit: Math.max(0, balance) };
}

/** "Credit: $12.34. Usage is taken from it before anything is owed." */
export function invoiceCreditText(credit: number): string {
  return `Credit: ${formatMoney(credit)}. Usage is taken from it before anything is owed.`;
}

/**
 * A ledger change always carries its sign: `+$25.00`, `-$0.01` (SPEC §2, §9). The sign is the
 * change's, not the rounded figure's: a debit under a cent is `-$0.00`, never `+$0.00`.
 */
export function formatChange(dollars: number): string {
  // The sign is the change's own: a debit under a cent reads -$0.00, never +$0.00.
  return `${dollars < 0 ? "-" : "+"}${formatMoney(Math.abs(dollars))}`;
}

/** The exact change, to the micro-dollar: `-$0.000123`, `+$25.00` (the title and accessible name of a rounded one). */
export function formatExactChange(dollars: number): string {
  return `${dollars < 0 ? "-" : "+"}${exactDollars(Math.abs(dollars))}`;
}

/** `visa` ending 4242 → "Visa •••• 4242". */
export function describeCard(card: { brand: string | null; last4: string | null } | null): string {
  if (!card) return "Card on file";
  const brand = card.brand ? card.brand.charAt(0).toUpperCase() + card.brand.slice(1) : "Card";
  return card.last4 ? `${brand} •••• ${card.last4}` : brand;
}

/**
 * What Remove and Update act on, for a screen reader: "Visa card ending 4242" (the visible "•••• 4242"
 * is read as bullets, or not at all).
 */
export function cardSubject(card: { brand: string | null; last4: string | null } | null): string {
  if (!card?.last4) return "payment method";
  const brand = card.brand ? `${card.brand.charAt(0).toUpperCase()}${card.brand.slice(1)} card` : "card";
  return `${brand} ending ${card.last4}`;
}
