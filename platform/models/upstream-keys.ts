import crypto from "node:crypto";
import type { DB } from "../db";
import { DatabaseStartError } from "../db";

/**
 * The models' upstream API keys, sealed in the database with a secret kept apart from it
 * (`UPSTREAM_KEYS_SECRET`, decision 0112): a copy of the database or a backup alone no longer gives
 * away the providers' keys. They can't be hashed as the console's own secrets are: the platform has to
 * send them. AES-256-GCM, a fresh nonce per key; a key sealed is stored as `enc:v1:<nonce>.<tag>.<data>`
 * (base64url). Without the secret, keys are stored as given (as before).
 */
const PREFIX = "enc:v1:";

interface Vault {
  key: Buffer;
  /** Opened keys by their sealed form: a chat request opens its model's key without the cipher. */
  opened: Map<string, string>;
}

/** Per database, as the secret is configured for the process that opened it. */
const vaults = new WeakMap<DB, Vault>();

function vaultKey(secret: string): Buffer {
  return Buffer.from(crypto.hkdfSync("sha256", secret, "", "console upstream API keys v1", 32));
}

function seal(vault: Vault, plain: string): string {
  const nonce = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv("aes-256-gcm", vault.key, nonce);
  const data = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return `${PREFIX}${nonce.toString("base64url")}.${cipher.getAuthTag().toString("base64url")}.${data.toString("base64url")}`;
}

/** The key, or null when this vault's secret is not the one it was sealed with. */
function open(vault: Vault, sealed: string): string | null {
  const known = vault.opened.get(sealed);
  if (known !== undefined) return known;
  const [nonce, tag, data] = sealed.slice(PREFIX.length).split(".");
  try {
    const decipher = crypto.createDecipheriv("aes-256-gcm", vault.key, Buffer.from(nonce, "base64url"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    const plain = Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]).toString("utf8");
    if (vault.opened.size >= 1_000) vault.opened.clear();
    vault.opened.set(sealed, plain);
    return plain;
  } catch {
    return null;
  }
}

export const isSealed = (stored: string | null): boolean => stored?.startsWith(PREFIX) ?? false;

/**
 * At start: with a secret, seals the keys still stored as given and checks it opens the sealed ones;
 * without one, checks no key is sealed. Either mistake would send every model a key it refuses, so the
 * start stops, in one line. Returns the models whose keys it sealed.
 */
export async function openUpstreamKeys(db: DB, secret: string | undefined): Promise<{ sealed: string[] }> {
  const rows = await db.selectFrom("models").select(["name", "api_key"]).where("api_key", "is not", null).execute();
  if (!secret) {
    vaults.delete(db);
    const sealed = rows.find((r) => isSealed(r.api_key));
    if (sealed)
      throw new DatabaseStartError(
        `The upstream API keys in the database are sealed (model '${sealed.name}'): set UPSTREAM_KEYS_SECRET to the secret they were sealed with.`,
      );
    return { sealed: [] };
  }
  const vault: Vault = { key: vaultKey(secret), opened: new Map() };
  const sealedNow: string[] = [];
  for (const row of rows) {
    if (isSealed(row.api_key)) {
      if (open(vault, row.api_key!) === null)
        throw new DatabaseStartError(
          `UPSTREAM_KEYS_SECRET does not open the upstream API key of model '${row.name}': set the secret the keys were sealed with.`,
        );
    } else {
      // Conditional: another process starting at the same time may have sealed it first.
      await db
        .updateTable("models")
        .set({ api_key: seal(vault, row.api_key!) })
        .where("name", "=", row.name)
        .where("api_key", "=", row.api_key)
        .execute();
      sealedNow.push(row.name);
    }
  }
  vaults.set(db, vault);
  return { sealed: sealedNow };
}

/** What to store for a key given to the model editor or MODELS_FILE: sealed when the process has the secret. */
export function storedKey(db: DB, plain: string | null): string | null {
  const vault = vaults.get(db);
  return plain !== null && vault ? seal(vault, plain) : plain;
}

/** The key to send a model's upstream. */
export function upstreamKey(db: DB, stored: string | null): string | null {
  if (!isSealed(stored)) return stored;
  const vault = vaults.get(db);
  const plain = vault ? open(vault, stored!) : null;
  // The start checks every key opens: a key sealed since by a process with another secret is a
  // misconfiguration of the deployment, which the operator must hear of.
  if (plain === null) throw new Error("An upstream API key is sealed with a secret this process does not have (UPSTREAM_KEYS_SECRET)");
  return plain;
}
