import type { AppLoadContext } from "@remix-run/node";
import { beforeAll, describe, expect, it } from "vitest";
import { action } from "~/routes/_org.team";
import { toastOf } from "~/toast.testing";

beforeAll(() => {
  process.env.SESSION_SECRET ??= "test-secret-test-secret-test-secret";
});

const SESSION = {
  valid: true,
  user: { id: 1, name: "Ada", email: "ada@example.test" },
  organizations: [{ id: 7, name: "Acme" }],
  activeOrganization: { id: 7, name: "Acme", hasPaymentMethod: false },
  activeRole: "admin",
};

/**
 * An admin of organization 7, on a platform that makes member 2, named `name`, an admin, and removes
 * them answering `removed`; `called` gets each call's method and address below /api/v1.
 */
function platform(name: string, named: (string | null)[] = [], removed: object = { ok: true }, called: string[] = []) {
  return {
    clientAddress: "127.0.0.1",
    platformFetch: async (request: Request | { url: string; method: string; headers: Headers }) => {
      const url = new URL(request.url);
      const path = url.pathname.replace(/^\/api\/v1/, "");
      if (path === "/auth/session") return Response.json(SESSION);
      named.push(request.headers.get("x-page-organization"));
      called.push(`${request.method} ${path}${url.search}`);
      if (`${request.method} ${path}` === "PUT /organizations/members/2") return Response.json({ id: 2, name, email: "b@example.test", role: "admin" });
      if (`${request.method} ${path}` === "DELETE /organizations/members/2") return Response.json(removed);
      return Response.json({ error: "Not found" }, { status: 404 });
    },
  } as unknown as AppLoadContext;
}

const removal = (fields: Record<string, string>) =>
  new Request("http://console.test/team", {
    method: "POST",
    body: new URLSearchParams({ intent: "remove", memberId: "2", pageOrganization: "7", ...fields }),
  });

describe("the team's action", () => {
  it("names the member whose role changed isolated in its toast, so a right-to-left name leaves the sentence in its order", async () => {
    const request = new Request("http://console.test/team", {
      method: "POST",
      body: new URLSearchParams({ intent: "role", memberId: "2", role: "admin", pageOrganization: "7" }),
    });
    const answer = (await action({ request, context: platform("שירה כהן"), params: {} })) as Response;
    expect(answer.status).toBe(302);
    expect(await toastOf(answer)).toBe("\u2068שירה כהן\u2069 is now an Admin.");
  });

  it("names the organization it checked to the platform, which refuses the call if another tab switched since", async () => {
    const named: (string | null)[] = [];
    const request = new Request("http://console.test/team", {
      method: "POST",
      body: new URLSearchParams({ intent: "role", memberId: "2", role: "admin", pageOrganization: "7" }),
    });
    await action({ request, context: platform("Bob", named), params: {} });
    expect(named).toEqual(["7"]);
  });

  it("goes back to the search and page the form was posted from", async () => {
    const request = new Request("http://console.test/team?q=bob&after=40&utm=x", {
      method: "POST",
      body: new URLSearchParams({ intent: "role", memberId: "2", role: "admin", pageOrganization: "7" }),
    });
    const answer = (await action({ request, context: platform("Bob"), params: {} })) as Response;
    expect(answer.headers.get("location")).toBe("/team?q=bob&after=40");
  });

  it("asks the platform to revoke what the member made when the question's box is checked, and says what was revoked", async () => {
    const called: string[] = [];
    const context = platform("Bob", [], { ok: true, revokedTokens: 2, revokedInvites: 1 }, called);
    const answer = (await action({ request: removal({ revokeMade: "true" }), context, params: {} })) as Response;
    expect(called).toEqual(["DELETE /organizations/members/2?revokeMade=true"]);
    expect(answer.status).toBe(302);
    expect(await toastOf(answer)).toBe("Member removed. Revoked 2 API tokens and 1 invite code they made.");
  });

  it("removes the member alone when the box is unchecked (the form then sends no field), as before", async () => {
    const called: string[] = [];
    const answer = (await action({ request: removal({}), context: platform("Bob", [], { ok: true }, called), params: {} })) as Response;
    expect(called).toEqual(["DELETE /organizations/members/2"]);
    expect(await toastOf(answer)).toBe("Member removed.");
  });

  it("says nothing was revoked when the member made nothing, and names one of a kind in the singular", async () => {
    const nothing = platform("Bob", [], { ok: true, revokedTokens: 0, revokedInvites: 0 });
    expect(await toastOf((await action({ request: removal({ revokeMade: "true" }), context: nothing, params: {} })) as Response)).toBe("Member removed.");
    const one = platform("Bob", [], { ok: true, revokedTokens: 1, revokedInvites: 0 });
    expect(await toastOf((await action({ request: removal({ revokeMade: "true" }), context: one, params: {} })) as Response)).toBe(
      "Member removed. Revoked 1 API token they made.",
    );
    const codes = platform("Bob", [], { ok: true, revokedInvites: 3 });
    expect(await toastOf((await action({ request: removal({ revokeMade: "true" }), context: codes, params: {} })) as Response)).toBe(
      "Member removed. Revoked 3 invite codes they made.",
    );
  });

  it("says what the member made was not revoked when the platform (of the earlier contract) answers without the counts", async () => {
    const older = platform("Bob", [], { ok: true });
    expect(await toastOf((await action({ request: removal({ revokeMade: "true" }), context: older, params: {} })) as Response)).toBe(
      "Member removed. The platform did not revoke the API tokens and invite codes they made: revoke them on API Tokens and below.",
    );
  });

  it("answers a form body it cannot read 400 'The form could not be read.', not a server error", async () => {
    const request = new Request("http://console.test/team", {
      method: "POST",
      headers: { "content-type": "multipart/form-data; boundary=zz" },
      // No closing boundary.
      body: '--zz\r\nContent-Disposition: form-data; name="intent"\r\n\r\nrole\r\n--zz',
    });
    const refused = await action({ request, context: platform("Bob"), params: {} }).catch((thrown: unknown) => thrown);
    expect(refused).toMatchObject({ init: { status: 400 }, data: { error: "The form could not be read." } });
  });
});
