import type { Context } from "hono";
import type { Deps } from "../context";
import { PlatformError } from "../http/errors";
import { isDevSignin } from "../config";
import { clientAddress, isLoopbackAddress, limitedAddress } from "./address";
import type { Backoff, Rule } from "./store";
import { claimTryAfterFailures, hit, recordFailure, waitAfterFailures } from "./store";

/** The limits of decision 0083, in one place. */
export const SIGNIN_PER_ADDRESS: Rule = { limit: 20, windowMs: 60_000 };
export const JOIN_PER_USER: Rule = { limit: 5, windowMs: 60_000 };
export const JOIN_PER_ADDRESS: Rule = { limit: 20, windowMs: 60_000 };
/** Token creation per organization (decision 0010). */
export const TOKEN_CREATION_PER_ORG: Rule = { limit: 20, windowMs: 60_000 };
/** Organizations one user may create in an hour: each brings a token, an account and audit rows (decision 0100). */
export const ORGANIZATION_CREATION_PER_USER: Rule = { limit: 10, windowMs: 3_600_000 };
/**
 * After 5 failed codes, wait a minute; each 5 more double the wait, up to a day. A success does not
 * reset the count: it ends a day after the last failure (see `recordJoinFailure`).
 */
export const JOIN_BACKOFF: Backoff = { step: 5, baseMs: 60_000, maxMs: 24 * 3600 * 1000 };

/** A 429 with the seconds to wait; routes copy `retryAfterSeconds` into `Retry-After`. */
export class TooManyRequests extends PlatformError {
  /** Sent with the body: `Retry-After` (the shape the platform's error handler writes). */
  readonly headers: Record<string, string>;

  constructor(
    readonly retryAfterSeconds: number,
    message = `Too many requests. Try again in ${retryAfterSeconds} s.`,
  ) {
    super(429, message);
    this.headers = { "Retry-After": String(retryAfterSeconds) };
  }
}

/**
 * Sign-in starts and callbacks: per client address (no address, as in tests: no limit). Development
 * sign-in serves loopback only, where a caller can sign in as anyone anyway: loopback is not counted.
 */
export async function limitSignin(c: Context, step: "start" | "callback", deps: Deps): Promise<number | null> {
  const address = clientAddress(c);
  if (!address || (isDevSignin(deps.config) && isLoopbackAddress(address))) return null;
  const verdict = await hit(deps, `signin-${step}:${limitedAddress(address)}`, SIGNIN_PER_ADDRESS);
  return verdict.ok ? null : verdict.retryAfterSeconds;
}

const failuresKey = (userId: number) => `join-failed:user:${userId}`;

/**
 * Before trying an invite code: the attempt rates per user and per address, and the wait the user's
 * failures earned. The growing wait is per user only: per address, one guesser behind a shared
 * address (an office, a NAT) would lock everyone there out.
 */
export async function admitJoin(c: Context, deps: Deps, userId: number): Promise<void> {
  const address = clientAddress(c);
  const userKey = `join:user:${userId}`;
  const addressKey = address ? `join:addr:${limitedAddress(address)}` : undefined;
  const wait = await waitAfterFailures(deps, failuresKey(userId), JOIN_BACKOFF);
  if (wait > 0) throw failedCodesWait(wait);
  for (const [key, rule] of [
    [userKey, JOIN_PER_USER],
    [addressKey, JOIN_PER_ADDRESS],
  ] as const) {
    if (!key) continue;
    const verdict = await hit(deps, key, rule);
    if (!verdict.ok) throw new TooManyRequests(verdict.retryAfterSeconds, `Too many attempts to join. Try again in ${verdict.retryAfterSeconds} s.`);
  }
  // Past the first failures, one try a wait, however many requests arrive together.
  const late = await claimTryAfterFailures(deps, failuresKey(userId), JOIN_BACKOFF);
  if (late > 0) throw failedCodesWait(late);
}

const failedCodesWait = (seconds: number) => new TooManyRequests(seconds, `Too many invalid invite codes. Try again in ${seconds} s.`);

/**
 * After a refused invite code: the next wait grows. A success does not forget the failures (they
 * expire a day after the last one): joining one's own organization must not reset a guesser's wait.
 */
export async function recordJoinFailure(deps: Deps, userId: number): Promise<void> {
  await recordFailure(deps, failuresKey(userId), JOIN_BACKOFF);
}

/** The 429 answer of a limit: the platform's `{error}` and `Retry-After`. */
export function tooManyResponse(c: Context, error: TooManyRequests): Response {
  c.header("Retry-After", String(error.retryAfterSeconds));
  return c.json({ error: error.message }, 429);
}
