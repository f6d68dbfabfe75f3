import crypto from "node:crypto";
import { record } from "../audit/record";
import type { Deps } from "../context";
import type { DB } from "../db";
import { DatabaseStartError } from "../db";

/**
 * The models' upstream API keys, sealed in the database with a secret kept apart from it
 * (`UPSTREAM_KEYS_SECRET`, decision 0112): a copy of the database or a backup alone no longer gives
 * away the providers' keys. They can't be hashed as the console's own secrets are: the platform has to
 * send them. AES-256-GCM, a fresh nonce per key; a key sealed is stored as `enc:v1:<nonce>.<tag>.<data>`
 * (base64url). Without the secret, keys are stored as given (as before). UPSTREAM_KEYS_SECRET_PREVIOUS
 * opens keys too, never seals: a rotation, or the secret's removal, under way (decision 0118).
 */
const PREFIX = "enc:v1:";

/** The secrets a process is given: it seals with `secret`, and opens with it or `previous` (a rotation under way). */
export interface UpstreamKeysSecrets {
  secret?: string;
  previous?: string;
}

interface Vault {
  /** Absent while the secret is being taken away: keys given then are stored as given. */
  sealing?: Buffer;
  /** The current key first: after a rotation nearly every key opens with it. */
  opening: Buffer[];
  /** Opened keys by their sealed form: a chat request opens its model's key without the cipher. */
  opened: Map<string, string>;
}

/** Per database, as the secrets are configured for the process that opened it. */
const vaults = new WeakMap<DB, Vault>();

function vaultKey(secret: string): Buffer {
  return Buffer.from(crypto.hkdfSync("sha256", secret, "", "console upstream API keys v1", 32));
}

function vaultOf(secrets: UpstreamKeysSecrets): Vault | undefined {
  const opening = [secrets.secret, secrets.previous].filter((s): s is string => !!s).map(vaultKey);
  if (opening.length === 0) return undefined;
  return { sealing: secrets.secret ? opening[0] : undefined, opening, opened: new Map() };
}

function seal(key: Buffer, plain: string): string {
  const nonce = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv("aes-256-gcm", key, nonce);
  const data = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return `${PREFIX}${nonce.toString("base64url")}.${cipher.getAuthTag().toString("base64url")}.${data.toString("base64url")}`;
}

/** The key, or null when it was not sealed with this one. */
function decipher(key: Buffer, sealed: string): string | null {
  const [nonce, tag, data] = sealed.slice(PREFIX.length).split(".");
  try {
    const decipher = crypto.createDecipheriv("aes-256-gcm", key, Buffer.from(nonce, "base64url"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    return null;
  }
}

/** The key, or null when none of this vault's secrets is the one it was sealed with. */
function open(vault: Vault, sealed: string): string | null {
  const known = vault.opened.get(sealed);
  if (known !== undefined) return known;
  for (const key of vault.opening) {
    const plain = decipher(key, sealed);
    if (plain === null) continue;
    if (vault.opened.size >= 1_000) vault.opened.clear();
    vault.opened.set(sealed, plain);
    return plain;
  }
  return null;
}

export const isSealed = (stored: string | null): boolean => stored?.startsWith(PREFIX) ?? false;

/**
 * Why a sealed key can't be used, in one line naming the model and the settings that were tried. To
 * `unseal` the keys, the old secret is given as the previous one: `reseal-upstream-keys --unseal`
 * refuses UPSTREAM_KEYS_SECRET.
 */
function unopenedMessage(model: string, secrets: UpstreamKeysSecrets, unseal = false): string {
  const tried = [secrets.secret && "UPSTREAM_KEYS_SECRET", secrets.previous && "UPSTREAM_KEYS_SECRET_PREVIOUS"].filter(Boolean);
  if (tried.length === 0) {
    const advice = unseal ? "to store them in the clear, set UPSTREAM_KEYS_SECRET_PREVIOUS" : "set UPSTREAM_KEYS_SECRET";
    return `The upstream API keys in the database are sealed (model '${model}'): ${advice} to the secret they were sealed with.`;
  }
  const subject = tried.length === 1 ? `${tried[0]} does not open` : `Neither ${tried.join(" nor ")} opens`;
  return `${subject} the upstream API key of model '${model}': set the secret the keys were sealed with.`;
}

/**
 * At start: checks every sealed key opens with a configured secret and, with UPSTREAM_KEYS_SECRET,
 * seals the keys still stored as given. A key that does not open would be sent to its model refused,
 * so the start stops, in one line. Keys sealed under UPSTREAM_KEYS_SECRET_PREVIOUS are left as they
 * are: processes still running with the old secret alone must keep opening them until the operator
 * re-seals them (`reseal-upstream-keys`). Returns the models whose keys it sealed, and those whose
 * keys only the previous secret opens.
 */
export async function openUpstreamKeys(db: DB, secrets: UpstreamKeysSecrets): Promise<{ sealed: string[]; underPrevious: string[] }> {
  const rows = await db.selectFrom("models").select(["name", "api_key"]).where("api_key", "is not", null).orderBy("name").execute();
  const vault = vaultOf(secrets);
  const sealedNow: string[] = [];
  const underPrevious: string[] = [];
  for (const row of rows) {
    if (isSealed(row.api_key)) {
      if (!vault || open(vault, row.api_key!) === null) throw new DatabaseStartError(unopenedMessage(row.name, secrets));
      if (!vault.sealing || decipher(vault.sealing, row.api_key!) === null) underPrevious.push(row.name);
    } else if (vault?.sealing) {
      // Conditional: another process starting at the same time may have sealed it first.
      await db
        .updateTable("models")
        .set({ api_key: seal(vault.sealing, row.api_key!) })
        .where("name", "=", row.name)
        .where("api_key", "=", row.api_key)
        .execute();
      sealedNow.push(row.name);
    }
  }
  if (vault) vaults.set(db, vault);
  else vaults.delete(db);
  return { sealed: sealedNow, underPrevious };
}

/** What to store for a key given to the model editor or MODELS_FILE: sealed when the process has the secret. */
export function storedKey(db: DB, plain: string | null): string | null {
  const sealing = vaults.get(db)?.sealing;
  return plain !== null && sealing ? seal(sealing, plain) : plain;
}

/** The key to send a model's upstream. */
export function upstreamKey(db: DB, stored: string | null): string | null {
  if (!isSealed(stored)) return stored;
  const vault = vaults.get(db);
  const plain = vault ? open(vault, stored!) : null;
  // The start checks every key opens: a key sealed since by a process with another secret is a
  // misconfiguration of the deployment (a rotation with processes left on the old secret), which the
  // operator must hear of.
  if (plain === null)
    throw new Error("An upstream API key is sealed with a secret this process does not have (UPSTREAM_KEYS_SECRET, UPSTREAM_KEYS_SECRET_PREVIOUS)");
  return plain;
}

/** What `resealUpstreamKeys` did, or the model whose key none of the secrets opens (then nothing changed). */
export type Resealing = { changed: string[]; unchanged: number } | { unopened: string; message: string };

/**
 * The operator's rotation (decision 0118): every stored key sealed under `secrets.secret` (opened with
 * it or `secrets.previous`), or with `unseal` stored as given. One transaction, the audit entry in it;
 * a key already as asked is left as it is, so a second run changes nothing. Every key is opened before
 * any is written: one that opens with neither secret changes nothing.
 */
export async function resealUpstreamKeys(deps: Deps, secrets: UpstreamKeysSecrets, unseal: boolean): Promise<Resealing> {
  const vault = vaultOf(secrets);
  const sealing = unseal ? undefined : vault?.sealing;
  if (!unseal && !sealing) throw new Error("resealUpstreamKeys needs UPSTREAM_KEYS_SECRET to seal with");
  return deps.db.transaction().execute(async (trx) => {
    // Read by a write that changes nothing, as reverseCredit locks its account: on PostgreSQL the rows
    // are then locked, so a model edit waits instead of being overwritten with the key it replaced
    // (SQLite's transactions take the write lock as they begin).
    const rows = (
      await trx
        .updateTable("models")
        .set((eb) => ({ api_key: eb.ref("api_key") }))
        .where("api_key", "is not", null)
        .returning(["name", "api_key"])
        .execute()
    ).sort((a, b) => a.name.localeCompare(b.name));
    const writes: { name: string; to: string }[] = [];
    for (const row of rows) {
      const stored = row.api_key!;
      if (!isSealed(stored)) {
        if (sealing) writes.push({ name: row.name, to: seal(sealing, stored) });
        continue;
      }
      if (sealing && decipher(sealing, stored) !== null) continue;
      const plain = vault ? open(vault, stored) : null;
      if (plain === null) return { unopened: row.name, message: unopenedMessage(row.name, secrets, unseal) };
      writes.push({ name: row.name, to: sealing ? seal(sealing, plain) : plain });
    }
    for (const write of writes) {
      await trx.updateTable("models").set({ api_key: write.to }).where("name", "=", write.name).execute();
    }
    const changed = writes.map((w) => w.name);
    if (changed.length > 0) {
      await record(deps, { orgId: null, action: unseal ? "upstream_keys.unsealed" : "upstream_keys.sealed", new: { models: changed } }, trx);
    }
    return { changed, unchanged: rows.length - changed.length };
  });
}
