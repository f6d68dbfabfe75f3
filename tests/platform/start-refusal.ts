import { expect } from "vitest";
import { DatabaseStartError } from "../../platform/db";

/** The DatabaseStartError a start fails with (it must fail with one): its message is what the operator reads. */
export async function startRefusal(work: Promise<unknown>): Promise<DatabaseStartError> {
  const error = await work.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DatabaseStartError);
  return error as DatabaseStartError;
}
