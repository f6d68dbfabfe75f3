import { useNavigation } from "@remix-run/react";
import { useEffect } from "react";

/**
 * Where focus goes when what had it is gone (WCAG 2.4.3): a confirmed row action (remove a member,
 * revoke a token) comes back without its row, and focus would fall to the page's body, the next Tab
 * going to the toast. The heading of the section the action was in takes it instead (decision 0098).
 */
let sectionHeading: string | null = null;

/** Called as a confirmed action is submitted, with an element inside the section it acts in. */
export function focusSectionAfterAction(from: Element): void {
  sectionHeading = from.closest("section[aria-labelledby]")?.getAttribute("aria-labelledby") ?? null;
}

/** Once navigation is idle again: the section's heading takes focus, if focus was lost meanwhile. */
export function useFocusAfterAction(): void {
  const navigation = useNavigation();
  useEffect(() => {
    if (navigation.state !== "idle" || !sectionHeading) return;
    const id = sectionHeading;
    sectionHeading = null;
    if (document.activeElement && document.activeElement !== document.body) return;
    const heading = document.getElementById(id);
    if (!heading) return;
    if (!heading.hasAttribute("tabindex")) heading.setAttribute("tabindex", "-1");
    heading.focus();
  }, [navigation.state]);
}
