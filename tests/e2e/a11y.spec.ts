import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { newPerson, OPERATOR, signInWithOrganization, signInWithRequests } from "./support/auth";
import { addCardWithRequests } from "./support/billing";
import { stubSpeech } from "./support/demos";
import { inviteWithRequests } from "./support/team";
import { expect, test } from "./support/test";

/**
 * The axe sweep of issue 14: every screen and dialog state, in the light and the dark theme (the
 * theme follows prefers-color-scheme, see app/styles/app.css), with no serious or critical WCAG
 * 2.0/2.1 A/AA violation.
 */

type Who = "admin" | "operator" | "new-user" | "signed-out";

interface Screen {
  path: string;
  who: Who;
  /** Something visible once the screen has rendered what it shows. */
  ready?: (page: Page) => Promise<void>;
}

const heading = (name: string | RegExp) => async (page: Page) => {
  await expect(page.getByRole("heading", { name }).first()).toBeVisible();
};

const SCREENS: Screen[] = [
  { path: "/login", who: "signed-out", ready: heading(/./) },
  { path: "/welcome", who: "new-user", ready: heading(/./) },
  { path: "/terms", who: "signed-out" },
  { path: "/privacy", who: "signed-out" },
  { path: "/", who: "admin", ready: heading("AI Playground") },
  { path: "/chat", who: "admin", ready: heading("Chat") },
  { path: "/chat?dialog=api-examples", who: "admin", ready: async (page) => void (await expect(page.getByRole("dialog")).toBeVisible()) },
  { path: "/video-generation", who: "admin" },
  { path: "/image-edit", who: "admin" },
  { path: "/synthesis-home", who: "admin" },
  { path: "/multimodal-home", who: "admin" },
  { path: "/multimodal-chat?prompt=Hello&modalities=text,image", who: "admin" },
  { path: "/avatar-home", who: "admin" },
  { path: "/avatar-chat?prompt=Hello", who: "admin" },
  { path: "/task-home", who: "admin" },
  { path: "/task-home?dialog=start-task&task=social-posts", who: "admin" },
  { path: "/task-execution?task=social-posts", who: "admin" },
  { path: "/template-home", who: "admin" },
  { path: "/template-editor", who: "admin" },
  { path: "/api-home", who: "admin" },
  { path: "/models", who: "admin" },
  { path: "/models/builtin", who: "admin", ready: heading("Last 7 days") },
  { path: "/playground/text", who: "admin" },
  { path: "/playground/image", who: "admin" },
  { path: "/playground/text/chat", who: "admin" },
  { path: "/playground/image/text-to-image", who: "admin" },
  { path: "/playground/nowhere", who: "admin" },
  { path: "/team", who: "admin", ready: heading("Team") },
  { path: "/organizations", who: "admin", ready: heading("Organizations") },
  { path: "/tokens", who: "admin", ready: heading("API Tokens") },
  { path: "/usage", who: "admin" },
  { path: "/audit", who: "admin", ready: heading("Entries") },
  { path: "/audit?action=session.signed_in", who: "operator", ready: heading("Entries of every organization") },
  { path: "/billing", who: "admin", ready: heading("Billing") },
  { path: "/billing?dialog=add-funds", who: "admin", ready: async (page) => void (await expect(page.getByRole("dialog")).toBeVisible()) },
  { path: "/billing?dialog=auto-payment", who: "admin", ready: async (page) => void (await expect(page.getByRole("dialog")).toBeVisible()) },
  { path: "/billing/success", who: "admin" },
  { path: "/billing/cancel", who: "admin" },
  { path: "/model-editor", who: "operator", ready: heading("Model Editor") },
  { path: "/model-editor?model=builtin", who: "operator", ready: heading("Model Editor") },
  { path: "/system/orgs", who: "operator" },
];

async function signIn(page: Page, screen: Screen) {
  if (screen.who === "signed-out") return;
  if (screen.who === "operator") return signInWithRequests(page.request, OPERATOR);
  if (screen.who === "new-user") return signInWithRequests(page.request, newPerson("Newcomer"));
  await signInWithOrganization(page);
  // With a card, Add funds and Configure are enabled, as most admins see them.
  if (screen.path.startsWith("/billing")) await addCardWithRequests(page);
  // With a code, the invite list shows its table (issue 14).
  if (screen.path === "/team") await inviteWithRequests(page.request, "multi-use");
}

async function seriousViolations(page: Page) {
  const found: { theme: string; rule: string; target: string; summary: string }[] = [];
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    // Let transitions (the drawer, dialogs, theme colours) settle so colours are measured at rest.
    await page.waitForTimeout(400);
    const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
    found.push(
      ...results.violations
        .filter((v) => v.impact === "serious" || v.impact === "critical")
        .flatMap((v) =>
          v.nodes.map((n) => ({
            theme: colorScheme,
            rule: v.id,
            target: n.target.join(" "),
            summary: n.failureSummary?.split("\n").slice(0, 2).join(" ") ?? "",
          })),
        ),
    );
  }
  return found;
}

// One sign-in and page load per screen, measured in both themes (the colours follow the media query).
for (const screen of SCREENS) {
  test(`${screen.path} has no serious or critical violations in the light and dark themes`, async ({ page }) => {
    await signIn(page, screen);
    await stubSpeech(page);
    await page.goto(screen.path);
    await page.waitForLoadState("networkidle");
    if (screen.ready) await screen.ready(page);
    const found = await seriousViolations(page);
    expect(found, JSON.stringify(found, null, 1)).toEqual([]);
  });
}

test.describe("at 390 px", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  for (const drawer of ["closed", "open"] as const) {
    test(`/team with the navigation drawer ${drawer} has no serious or critical violations in either theme`, async ({ page }) => {
      await signInWithOrganization(page);
      await page.goto("/team");
      await page.waitForLoadState("networkidle");
      if (drawer === "open") {
        await page.locator("header .drawer-button").click();
        await expect(page.getByRole("navigation", { name: "Organization" })).toBeVisible();
      }
      const found = await seriousViolations(page);
      expect(found, JSON.stringify(found, null, 1)).toEqual([]);
    });
  }

  for (const path of ["/tokens", "/billing", "/models", "/models/builtin", "/usage", "/chat?dialog=api-examples", "/api-home", "/organizations"]) {
    test(`${path} has no serious or critical violations in either theme`, async ({ page }) => {
      await signInWithOrganization(page);
      await page.goto(path);
      await page.waitForLoadState("networkidle");
      const found = await seriousViolations(page);
      expect(found, JSON.stringify(found, null, 1)).toEqual([]);
    });
  }
});
