import { z } from "zod";

/** A member of the active organization (SPEC §3). */
export const memberSchema = z.object({
  id: z.number(),
  name: z.string(),
  email: z.string(),
  role: z.enum(["admin", "member"]),
});
export type Member = z.infer<typeof memberSchema>;
export type Role = Member["role"];

export const memberListSchema = z.array(memberSchema);
