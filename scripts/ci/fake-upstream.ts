/**
 * The tests' fake OpenAI-compatible upstream as a process of its own, for the CI parts that need a priced
 * model outside a test runner: prints its base URL (`http://127.0.0.1:PORT/v1`) and serves until killed.
 *   node --import tsx scripts/ci/fake-upstream.ts
 */
import { startFakeUpstream } from "../../tests/fakes/openai-upstream";

const fake = await startFakeUpstream();
console.log(fake.url);
