import { z } from "zod";
import { idFromUrl } from "./ids";

export const ROLES = ["admin", "member"] as const;
export const roleSchema = z.enum(ROLES);
export type Role = z.infer<typeof roleSchema>;

/** A member of the active organization (SPEC §3). */
export const memberSchema = z.object({ id: z.number(), name: z.string(), email: z.string(), role: roleSchema });
export type Member = z.infer<typeof memberSchema>;
export const memberListSchema = z.array(memberSchema);

/** PUT /api/v1/organizations/members/{id}. */
export const changeRoleSchema = z.object({ role: roleSchema });
export const memberParamSchema = z.object({ id: idFromUrl });
