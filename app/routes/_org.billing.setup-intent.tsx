import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { billingApi } from "~/platform/billing.server";
import { platformClient } from "~/platform/client.server";
import { staleOrganizationRefusal } from "~/session.server";

const body = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("start") }),
  z.object({ intent: z.literal("confirm"), setupIntentId: z.string().min(1).max(255) }),
]);

/**
 * The card form's server calls (a resource route, JSON in and out): `start` makes the platform's
 * SetupIntent (SPEC §7 `POST /billing/payment-method`), `confirm` records a succeeded one at once.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const api = platformClient(request, context);
  const parsed = body.safeParse(await request.json().catch(() => null));
  if (!parsed.success) return Response.json({ error: "Invalid request" }, { status: 400 });
  const stale = await staleOrganizationRefusal(request, api);
  if (stale) return Response.json({ error: stale }, { status: 409, headers: api.headers });
  const billing = billingApi(api);
  const result = parsed.data.intent === "start" ? await billing.setupPaymentMethod() : await billing.confirmSetup(parsed.data.setupIntentId);
  if (!result.ok) return Response.json({ error: result.error }, { status: result.status, headers: api.headers });
  return Response.json(parsed.data.intent === "start" ? { clientSecret: (result.data as { clientSecret?: string }).clientSecret ?? null } : { ok: true }, {
    headers: api.headers,
  });
}
