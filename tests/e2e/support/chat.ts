import { randomUUID } from "node:crypto";
import { request } from "@playwright/test";
import type { FakeUpstream } from "../../fakes/openai-upstream";
import { startFakeUpstream } from "../../fakes/openai-upstream";
import { OPERATOR, signInWithRequests } from "./auth";

/**
 * A fake OpenAI-compatible upstream in the test process, and models that point at it, registered by
 * the operator (the system organization's admin) through the platform's model registry.
 */
export async function fakeModels(upstreams: string[]): Promise<{
  fake: FakeUpstream;
  names: Record<string, string>;
  /** Deletes one of the models now, as the operator would while a member's chat is open. */
  remove: (upstream: string) => Promise<void>;
  dispose: () => Promise<void>;
}> {
  const fake = await startFakeUpstream();
  const operator = await request.newContext({ baseURL: process.env.E2E_BASE_URL });
  await signInWithRequests(operator, OPERATOR);
  const names: Record<string, string> = {};
  for (const upstream of upstreams) {
    const name = `e2e-${upstream}-${randomUUID().slice(0, 6)}`;
    const response = await operator.put(`/api/v1/models/${name}`, {
      data: { displayName: `Fake ${upstream} ${name.slice(-6)}`, provider: "fake", contextSize: 32768, baseUrl: fake.url, upstreamModel: upstream },
    });
    if (!response.ok()) throw new Error(`registering ${name} answered ${response.status()}: ${await response.text()}`);
    names[upstream] = name;
  }
  return {
    fake,
    names,
    remove: async (upstream) => {
      const response = await operator.delete(`/api/v1/models/${names[upstream]}`);
      if (!response.ok()) throw new Error(`deleting ${names[upstream]} answered ${response.status()}`);
    },
    dispose: async () => {
      for (const name of Object.values(names)) await operator.delete(`/api/v1/models/${name}`);
      await operator.dispose();
      await fake.close();
    },
  };
}
