import type { AppLoadContext } from "@remix-run/node";
import { describe, expect, it, vi } from "vitest";
import { renderRoute, routeData, setUpRoutePages } from "~/lib/route-page.testing";

/**
 * The /team route as a whole: its loader and action against a fake platform, and its page rendered on the
 * server (what a browser without JavaScript gets) with what they answered.
 */
vi.mock("@remix-run/react", async () => (await import("~/lib/route-page.testing")).remixReadingRouteData());

const { action, loader, default: TeamPage } = await import("~/routes/_org.team");

setUpRoutePages();

const SESSION = {
  valid: true,
  user: { id: 1, name: "Ada", email: "ada@example.test" },
  organizations: [{ id: 7, name: "Acme" }],
  activeOrganization: { id: 7, name: "Acme", hasPaymentMethod: false },
  activeRole: "admin",
};
const MEMBERS = [
  { id: 1, name: "Ada", email: "ada@example.test", role: "admin" },
  { id: 2, name: "Bob", email: "bob@example.test", role: "member" },
];

/** "unreachable": the call throws, as a refused connection does; otherwise a body answered with 200. */
type Answer = { body: unknown } | "unreachable";

/** The platform's answers by method and path (without /api/v1 and the query). */
function fakePlatform(answers: Record<string, Answer>) {
  const defaults: Record<string, Answer> = {
    "GET /auth/session": { body: SESSION },
    "GET /organizations/members": { body: MEMBERS },
    "GET /organizations/invites": { body: [] },
  };
  return {
    clientAddress: "127.0.0.1",
    platformFetch: async (request: Request | { url: string; method: string }) => {
      const key = `${request.method} ${new URL(request.url).pathname.replace(/^\/api\/v1/, "")}`;
      const answer = answers[key] ?? defaults[key];
      if (answer === "unreachable") throw new Error("connect ECONNREFUSED");
      return answer ? Response.json(answer.body) : Response.json({ error: "Not found" }, { status: 404 });
    },
  } as unknown as AppLoadContext;
}

const render = () => renderRoute("/team", <TeamPage />);

describe("/team with the platform unreachable or answering a wrong shape (SPEC §8)", () => {
  // The text, the failing call, and the form sent (none: the page's load).
  const cases: [string, string, Record<string, string> | null][] = [
    ["Failed to load members", "GET /organizations/members", null],
    ["Failed to generate invite", "POST /organizations/invites", { intent: "invite", kind: "single-use" }],
    ["Failed to update role", "PUT /organizations/members/2", { intent: "role", memberId: "2", role: "admin" }],
    ["Failed to remove member", "DELETE /organizations/members/2", { intent: "remove", memberId: "2" }],
  ];
  for (const [text, call, form] of cases)
    for (const [how, answer] of [
      ["unreachable", "unreachable"],
      ["a wrong shape", { body: "unexpected" }],
    ] as const)
      it(`shows '${text}' in an alert when ${call} is ${how}`, async () => {
        const quiet = vi.spyOn(console, "error").mockImplementation(() => {});
        try {
          const context = fakePlatform({ [call]: answer });
          routeData.loader = await loader({ request: new Request("http://console.test/team"), context, params: {} });
          if (form) {
            const request = new Request("http://console.test/team", { method: "POST", body: new URLSearchParams({ pageOrganization: "7", ...form }) });
            routeData.action = ((await action({ request, context, params: {} })) as unknown as { data: unknown }).data;
          }
          expect(await render()).toMatch(new RegExp(`role="alert"[^>]*>(<[^>]+>)*${text}<`));
        } finally {
          quiet.mockRestore();
        }
      });
});
