/** The audit log's wire is the contract's. */
export { AUDIT_ACTION_LABELS, AUDIT_ACTIONS, auditPageSchema } from "@contract/audit";
export type { AuditAction, AuditEntry, AuditPage } from "@contract/audit";
