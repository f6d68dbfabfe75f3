import { createHash, randomBytes } from "node:crypto";

/** The secret shown once: `sk-` and 32 random bytes (256 bits), base64url. */
export function newTokenSecret(): string {
  return `sk-${randomBytes(32).toString("base64url")}`;
}

/** The only form in which a secret is stored. */
export function hashTokenSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

/** The public handle of a token: safe to list, useless for calling the API. */
export function newPublicId(): string {
  return `tok_${randomBytes(9).toString("base64url")}`;
}
