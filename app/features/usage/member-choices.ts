import type { UsageReport } from "~/platform/usage";
import { memberLabel } from "./format";

export interface MemberChoice {
  id: number;
  name: string;
}

/**
 * The Member select's choices. The members listed (the first who joined, or a search's matches; 0138),
 * with the filter's member first when the list does not hold them, and those who have left among the
 * people the report names, said to have (0140): every one of them when the select lists every member, the
 * chosen one alone beside a search, which finds members.
 */
export function memberChoices({
  listed,
  chosen,
  chosenId,
  former,
  searching,
}: {
  listed: MemberChoice[];
  /** The filter's member as a member of the organization (null: none, not a member now, or not read). */
  chosen: MemberChoice | null;
  chosenId: number | undefined;
  former: NonNullable<UsageReport["formerMembers"]>;
  searching: boolean;
}): MemberChoice[] {
  const left = former.filter((f) => !searching || f.member === chosenId).map((f) => ({ id: f.member, name: memberLabel(f, true) }));
  const ahead = chosen && !listed.some((m) => m.id === chosen.id) ? [chosen] : [];
  const all = searching ? [...ahead, ...left, ...listed] : [...ahead, ...listed, ...left];
  const seen = new Set<number>();
  return all.filter((m) => !seen.has(m.id) && seen.add(m.id));
}
