import type { Context } from "hono";
import type { PlatformConfig } from "./config";
import type { DB } from "./db";
import type { Role } from "@contract/team";

/** What every handler can reach through `c.var`. */
export interface Deps {
  db: DB;
  config: PlatformConfig;
  now: () => number;
  /** The /api/v1 request being served, for the audit log's who and from where (platform/audit/record.ts). */
  request?: Context<PlatformEnv>;
  /**
   * Who acts when there is no request: the operator commands name the OS user who ran them, so their
   * audit entries say more than "Platform" (scripts/cli/command.ts).
   */
  operator?: string;
  /** Aborted when the process stops: a request still waiting for an upstream's JSON answer gives up (server/shutdown.ts). */
  stopping?: AbortSignal;
}

export interface Caller {
  userId: number;
  sessionHash: string;
  name: string;
  email: string;
  /** Whether the sign-in provider proved `email` (two accounts may show one address). */
  emailVerified: boolean;
}

export interface Membership {
  orgId: number;
  orgName: string;
  role: Role;
}

export interface PlatformEnv {
  Variables: {
    deps: Deps;
    caller: Caller;
    membership: Membership;
  };
}

/** Organization 1 (the contract's constant, kept here for the platform's imports). */
export { SYSTEM_ORG_ID } from "@contract/system";
