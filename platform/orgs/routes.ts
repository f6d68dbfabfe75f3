import { Hono } from "hono";
import type { Ok } from "@contract/session";
import { createInviteSchema, createOrganizationSchema, inviteParamSchema, inviteQuerySchema } from "@contract/orgs";
import type { MemberRemoved } from "@contract/team";
import { changeRoleSchema, memberParamSchema, memberQuerySchema, removeMemberQuerySchema } from "@contract/team";
import type { PlatformEnv } from "../context";
import { setActiveOrganization } from "../auth/service";
import { adminOnly, inOrganization, SECRET_ANSWER, signedIn } from "../http/middleware";
import { refuseOtherThanJson, valid } from "../http/validate";
import { resetPrimaryToken } from "../tokens/service";
import { resetTokenSchema } from "@contract/tokens";
import { fieldErrors, issueText } from "@contract/errors";
import { PlatformError } from "../http/errors";
import { changeMemberRole, createInvite, createOrganization, findMember, listActiveInvites, listMembers, removeMember, revokeInvite } from "./service";

export { organizationName } from "@contract/orgs";

/** A member id from the path; anything that isn't one is simply not found. */
const memberParam = valid("param", memberParamSchema, { notFound: "Member not found" });
const inviteParam = valid("param", inviteParamSchema, { notFound: "Invite not found" });

export const orgRoutes = new Hono<PlatformEnv>()
  .get("/config", (c) => c.json({ orgSignupEnabled: c.var.deps.config.orgSignupEnabled }))
  .post("/", signedIn, valid("json", createOrganizationSchema), async (c) => {
    const org = await createOrganization(c.var.deps, c.var.caller.userId, c.req.valid("json").name);
    await setActiveOrganization(c.var.deps, c.var.caller.sessionHash, org.id);
    return c.json(org, 201);
  })
  .post("/invites", signedIn, inOrganization, adminOnly, valid("json", createInviteSchema), async (c) => {
    const invite = await createInvite(c.var.deps, c.var.membership.orgId, c.var.caller.userId, c.req.valid("json"));
    return c.json(invite, 201, SECRET_ANSWER);
  })
  .get("/invites", signedIn, inOrganization, adminOnly, valid("query", inviteQuerySchema), async (c) =>
    c.json(await listActiveInvites(c.var.deps, c.var.membership.orgId, c.req.valid("query")), 200, SECRET_ANSWER),
  )
  .delete("/invites/:id", signedIn, inOrganization, adminOnly, inviteParam, async (c) => {
    await revokeInvite(c.var.deps, c.var.membership.orgId, c.var.caller.userId, c.req.valid("param").id);
    return c.json<Ok>({ ok: true });
  })
  .get("/members", signedIn, inOrganization, valid("query", memberQuerySchema), async (c) =>
    c.json(await listMembers(c.var.deps, c.var.membership.orgId, c.req.valid("query"))),
  )
  // One member by id, for a page that names a member its list does not hold (/usage's filter, 0138).
  .get("/members/:id", signedIn, inOrganization, memberParam, async (c) =>
    c.json(await findMember(c.var.deps.db, c.var.membership.orgId, c.req.valid("param").id)),
  )
  .put("/members/:id", signedIn, inOrganization, adminOnly, memberParam, valid("json", changeRoleSchema), async (c) => {
    const { orgId } = c.var.membership;
    return c.json(await changeMemberRole(c.var.deps, orgId, c.var.caller.userId, c.req.valid("param").id, c.req.valid("json").role));
  })
  .delete("/members/:id", signedIn, inOrganization, adminOnly, memberParam, valid("query", removeMemberQuerySchema), async (c) => {
    const removed = await removeMember(c.var.deps, c.var.membership.orgId, c.var.caller.userId, c.req.valid("param").id, c.req.valid("query"));
    return c.json<Ok & MemberRemoved>({ ok: true, ...removed });
  })
  .post("/reset-token", signedIn, inOrganization, adminOnly, async (c) => {
    // The body is optional (decision 0139): a call of the earlier contract sent none, and curl's or a
    // client's JSON headers with an empty body still reset, as they did; a body of another type is refused.
    await refuseOtherThanJson(c);
    const text = await c.req.text();
    let body: unknown = null;
    if (text.trim() !== "") {
      try {
        body = JSON.parse(text);
      } catch {
        throw new PlatformError(400, "Malformed JSON in request body");
      }
    }
    const parsed = resetTokenSchema.safeParse(body ?? {});
    if (!parsed.success) throw new PlatformError(400, issueText(parsed.error.issues), { fields: fieldErrors(parsed.error.issues) });
    return c.json(await resetPrimaryToken(c.var.deps, c.var.membership.orgId, c.var.caller.userId, parsed.data.version), 200, SECRET_ANSWER);
  });
