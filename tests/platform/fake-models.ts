import type { Deps } from "../../platform/context";
import { saveModel } from "../../platform/models/service";

/**
 * Registers each of the fake upstream's behaviours as a priced model `fake-<behaviour>` (rate card
 * `rc-<behaviour>`, per million tokens: $1 in and $2 out unless told otherwise).
 */
export async function saveFakeModels(
  deps: Deps,
  baseUrl: string,
  behaviours: readonly string[],
  options: { contextSize?: number; apiKey?: string; inputPerMillion?: number; outputPerMillion?: number } = {},
): Promise<void> {
  for (const behaviour of behaviours) {
    await saveModel(deps, {
      name: `fake-${behaviour}`,
      displayName: `Fake ${behaviour}`,
      provider: "vllm",
      contextSize: options.contextSize ?? 32768,
      baseUrl,
      ...(options.apiKey ? { apiKey: options.apiKey } : {}),
      upstreamModel: behaviour,
      rateCard: { id: `rc-${behaviour}`, inputPerMillion: options.inputPerMillion ?? 1, outputPerMillion: options.outputPerMillion ?? 2 },
    });
  }
}
