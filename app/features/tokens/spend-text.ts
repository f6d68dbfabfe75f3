import { formatMoney } from "@contract/money";
import type { ApiToken } from "~/platform/tokens";

/** "$0.08 / $0.10", "$3.00 / $10.00 this month", or null without a budget. */
export function budgetText(budget: ApiToken["budget"]): string | null {
  if (!budget) return null;
  return `${formatMoney(budget.spent)} / ${formatMoney(budget.amount)}${budget.period === "month" ? " this month" : ""}`;
}

export function modelsText(allowed: string[] | null): string {
  return allowed === null ? "All models" : allowed.join(", ");
}

export function rateText(rpm: number | null): string | null {
  return rpm === null ? null : `${rpm.toLocaleString("en-US")} / min`;
}
