import { z } from "zod";
import { tokenVersionSchema } from "./tokens";

/** Key rotation (issue 16): how long the old secret keeps working after a roll. */
export const ROLL_GRACE_CHOICES = ["none", "1h", "24h", "7d"] as const;
export type RollGrace = (typeof ROLL_GRACE_CHOICES)[number];
export const ROLL_GRACE_MS: Record<RollGrace, number> = { none: 0, "1h": 3_600_000, "24h": 86_400_000, "7d": 7 * 86_400_000 };
export const ROLL_GRACE_LABELS: Record<RollGrace, string> = { none: "None: refuse it now", "1h": "1 hour", "24h": "24 hours", "7d": "7 days" };
export const ROLL_GRACE_REQUIRED = "Choose how long the old secret keeps working";

/** POST /api/v1/tokens/{publicId}/roll (admins): answered like creation, with the new secret once. */
export const rollTokenSchema = z.object({ grace: z.enum(ROLL_GRACE_CHOICES, { message: ROLL_GRACE_REQUIRED }), version: tokenVersionSchema });
