import { z } from "zod";
import { beforeId, idToFind, pageLimit, urlNumber } from "./ids";

/**
 * The audit log (issue 16): what was done, by whom, from where, with the values before and after.
 * Values are plain JSON, never secrets (a token is named by its public id, a card by brand and last 4).
 */
export const AUDIT_ACTIONS = [
  "session.signed_in",
  "organization.created",
  "invite.created",
  "invite.revoked",
  "member.joined",
  "member.role_changed",
  "member.removed",
  "token.created",
  "token.settings_changed",
  "token.rolled",
  "token.revoked",
  "organization.token_reset",
  "payment_method.added",
  "payment_method.removed",
  "funds.added",
  "funds.reversed",
  "auto_payment.changed",
  "spend_cap.changed",
  "organization.renamed",
  "organization.payment_mode_changed",
  "credit.granted",
  "credit.reversed",
  "upstream_keys.sealed",
  "upstream_keys.unsealed",
  "model.created",
  "model.changed",
  "model.deleted",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** How the console names each action (the filter's options, the table's column). */
export const AUDIT_ACTION_LABELS: Record<AuditAction, string> = {
  "session.signed_in": "Signed in",
  "organization.created": "Organization created",
  "invite.created": "Invite created",
  "invite.revoked": "Invite revoked",
  "member.joined": "Member joined",
  "member.role_changed": "Role changed",
  "member.removed": "Member removed",
  "token.created": "Token created",
  "token.settings_changed": "Token settings changed",
  "token.rolled": "Token rolled",
  "token.revoked": "Token revoked",
  "organization.token_reset": "Organization token reset",
  "payment_method.added": "Payment method added",
  "payment_method.removed": "Payment method removed",
  "funds.added": "Funds added",
  "funds.reversed": "Funds refunded or charged back",
  "auto_payment.changed": "Auto-payment changed",
  "spend_cap.changed": "Spending cap changed",
  "organization.renamed": "Organization renamed",
  "organization.payment_mode_changed": "Payment mode changed",
  "credit.granted": "Credit granted",
  "credit.reversed": "Credit reversed",
  "upstream_keys.sealed": "Upstream API keys sealed",
  "upstream_keys.unsealed": "Upstream API keys unsealed",
  "model.created": "Model added",
  "model.changed": "Model changed",
  "model.deleted": "Model deleted",
};

export const auditEntrySchema = z.object({
  id: z.number(),
  /** The organization the entry belongs to; null for an event of none (a sign-in without one). */
  organizationId: z.number().nullable(),
  /** That organization's name as it is now (null for none, or one since deleted). */
  organizationName: z.string().nullable().default(null),
  /** Who did it; null for the platform itself (a webhook, a recharge); an operator command has a name only ("Command line (alice)"). */
  actor: z
    .object({
      id: z.number().nullable(),
      name: z.string().nullable(),
      email: z.string().nullable(),
      /** Whether the sign-in provider had proved `email` then; absent when not known (earlier entries, an earlier platform). */
      emailVerified: z.boolean().optional(),
    })
    .nullable(),
  action: z.enum(AUDIT_ACTIONS),
  /** What it was done to: a token's public id, a member's email, an organization's name. */
  target: z.string().nullable(),
  oldValue: z.unknown().nullable(),
  newValue: z.unknown().nullable(),
  /** The caller's network address, when known. */
  address: z.string().nullable(),
  /** ISO 8601, UTC. */
  timestamp: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

/** One page, newest first; `nextBefore` fetches the next (older) page, null at the end. */
export const auditPageSchema = z.object({ entries: z.array(auditEntrySchema), nextBefore: z.number().nullable() });
export type AuditPage = z.infer<typeof auditPageSchema>;

export const AUDIT_PAGE_SIZE = 50;
export const AUDIT_PAGE_MAX = 200;

/** An instant in a URL: epoch milliseconds in digits, as ids and limits are written (decision 0140). */
const epochMs = urlNumber("must be epoch milliseconds, in digits").pipe(z.number().safe());

/**
 * GET /api/v1/audit (admins) and its CSV, /api/v1/audit/export. `actor` is an email (any case);
 * `from` (included) and `to` (excluded) are epoch milliseconds; `before` an entry id (keyset paging).
 */
export const auditQuerySchema = z.object({
  action: z.enum(AUDIT_ACTIONS).optional(),
  actor: z.string().trim().min(1).max(320).optional(),
  from: epochMs.optional(),
  to: epochMs.optional(),
  before: beforeId.optional(),
  limit: pageLimit(AUDIT_PAGE_MAX).default(String(AUDIT_PAGE_SIZE)),
});
export type AuditQuery = z.infer<typeof auditQuerySchema>;

/** GET /api/v1/system/audit (system organization admins): every organization's, or one's. */
export const systemAuditQuerySchema = auditQuerySchema.extend({ organization: idToFind.text.optional() });

/** The CSV's header row, in column order. */
export const AUDIT_CSV_COLUMNS = [
  "id",
  "timestamp",
  "organization_id",
  "action",
  "actor_name",
  "actor_email",
  "target",
  "old_value",
  "new_value",
  "address",
  "actor_email_verified",
] as const;
