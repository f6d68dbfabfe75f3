import type { ApiToken } from "~/platform/tokens";

// One formatter for the module: toLocaleString with options builds a new one per call (decision 0087).
const dollars = new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const money = (amount: number) => `$${dollars.format(amount)}`;

/** "$0.08 / $0.10", "$3.00 / $10.00 this month", or null without a budget. */
export function budgetText(budget: ApiToken["budget"]): string | null {
  if (!budget) return null;
  return `${money(budget.spent)} / ${money(budget.amount)}${budget.period === "month" ? " this month" : ""}`;
}

export function modelsText(allowed: string[] | null): string {
  return allowed === null ? "All models" : allowed.join(", ");
}

export function rateText(rpm: number | null): string | null {
  return rpm === null ? null : `${rpm.toLocaleString("en-US")} / min`;
}
