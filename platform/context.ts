import type { PlatformConfig } from "./config";
import type { DB } from "./db";
import type { Role } from "./db/schema";

/** What every handler can reach through `c.var`. */
export interface Deps {
  db: DB;
  config: PlatformConfig;
  now: () => number;
}

export interface Caller {
  userId: number;
  sessionHash: string;
  name: string;
  email: string;
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

export const SYSTEM_ORG_ID = 1;
