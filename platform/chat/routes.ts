import { Hono } from "hono";
import { receiptParamSchema } from "@contract/chat";
import { ORGANIZATION_CHANGED, PAGE_ORGANIZATION_HEADER } from "@contract/session";
import { readSessionCookie } from "../auth/cookies";
import { resolveCaller } from "../auth/service";
import type { PlatformEnv } from "../context";
import { inOrganization, signedIn } from "../http/middleware";
import { PlatformError } from "../http/errors";
import { valid } from "../http/validate";
import { ChatError, chatCompletion, chatErrorResponse, findReceipt, parseChatRequest } from "./service";

/** The console's chat (SPEC §7): members of the active organization, errors in the OpenAI shape. */
export const chatRoutes = new Hono<PlatformEnv>()
  .post("/completions", async (c) => {
    try {
      const session = await resolveCaller(c.var.deps, readSessionCookie(c));
      if (!session) throw new ChatError(401, "Not signed in", "authentication_error");
      if (!session.active) throw new ChatError(403, "Join or create an organization first", "permission_error");
      if (![undefined, String(session.active.id)].includes(c.req.header(PAGE_ORGANIZATION_HEADER)))
        throw new ChatError(409, ORGANIZATION_CHANGED, "invalid_request_error", { code: "organization_changed" });
      const body = parseChatRequest(await c.req.json().catch(() => null));
      return await chatCompletion(c.var.deps, { orgId: session.active.id, userId: session.user.id, tokenId: null }, body, c.req.raw.signal);
    } catch (error) {
      if (error instanceof ChatError) return chatErrorResponse(error);
      throw error;
    }
  })
  .get("/receipts/:id", signedIn, inOrganization, valid("param", receiptParamSchema, { notFound: "Receipt not found" }), async (c) => {
    const receipt = await findReceipt(c.var.deps, c.var.membership.orgId, c.req.valid("param").id);
    if (!receipt) throw new PlatformError(404, "Receipt not found");
    return c.json(receipt);
  });
