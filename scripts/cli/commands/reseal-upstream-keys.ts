import { resealUpstreamKeys } from "../../../platform/models/upstream-keys";
import { upstreamKeysSettings } from "../../../server/env";
import type { Command } from "../command";
import { commandSettings, OperatorError, withDatabase } from "../command";

const UNSEAL = "--unseal";

const keys = (n: number) => `${n} upstream API key${n === 1 ? "" : "s"}`;

export const command: Command = {
  usage: `[${UNSEAL}]`,
  summary:
    "seals every stored upstream API key under UPSTREAM_KEYS_SECRET, opening it with that or UPSTREAM_KEYS_SECRET_PREVIOUS (a rotation); with --unseal stores them in the clear (the secret's removal). In one transaction",
  async run(args) {
    if (args.length > 1 || (args.length === 1 && args[0] !== UNSEAL)) return 2;
    const unseal = args[0] === UNSEAL;
    const env = commandSettings(upstreamKeysSettings);
    const secrets = { secret: env.UPSTREAM_KEYS_SECRET, previous: env.UPSTREAM_KEYS_SECRET_PREVIOUS };
    // Checked before the database is opened: each mistake would leave the keys in a state the
    // processes can't use.
    if (unseal && secrets.secret) {
      // A process with the secret seals every key again at its next start.
      throw new OperatorError(
        `UPSTREAM_KEYS_SECRET is set: to store the keys in the clear, take it out of every process's settings and this command's, giving its value as UPSTREAM_KEYS_SECRET_PREVIOUS instead (README, "Rotating the upstream keys secret").`,
      );
    }
    if (!unseal && !secrets.secret) {
      throw new OperatorError(`UPSTREAM_KEYS_SECRET is not set: set the secret to seal the keys under, or pass ${UNSEAL} to store them in the clear.`);
    }
    return withDatabase(async (deps) => {
      const result = await resealUpstreamKeys(deps, secrets, unseal);
      if ("unopened" in result) {
        console.error(`Nothing changed: ${result.message}`);
        return 1;
      }
      const { changed, unchanged } = result;
      const models = changed.length > 0 ? ` (${changed.join(", ")})` : "";
      const already = unchanged > 0 ? `; ${unchanged} already ${unchanged === 1 ? "was" : "were"}` : "";
      if (unseal) {
        console.log(`Stored ${keys(changed.length)} in the clear${models}${already}.`);
        // On stderr, as the command's other advice: stdout says what changed.
        console.error(
          "Warning: the upstream API keys are now stored as given: a copy of the database or a backup taken from now on gives them away. Take UPSTREAM_KEYS_SECRET_PREVIOUS out of every process's settings; backups taken before still need it.",
        );
      } else {
        console.log(`Sealed ${keys(changed.length)} under UPSTREAM_KEYS_SECRET${models}${already}.`);
        if (secrets.previous) console.error("UPSTREAM_KEYS_SECRET_PREVIOUS opens none of them now: take it out of every process's settings.");
      }
      return 0;
    });
  },
};
