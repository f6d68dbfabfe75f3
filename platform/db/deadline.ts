/** A step given up at its deadline; its message says how long the database was given. */
export class DeadlinePassed extends Error {}

/**
 * `work`, unless `deadline` (epoch ms) comes first: then rejects with DeadlinePassed ("the database did
 * not answer within N s") and leaves `work` running, for the process's exit to end. A stop uses it so a
 * database that stopped answering (a hung host: only the pool's 40 s hold would end the wait, decision
 * 0109) does not hold the process past its shutdown's deadline.
 */
export function byDeadline<T>(work: Promise<T>, deadline: number): Promise<T> {
  if (deadline === Infinity) return work;
  const ms = Math.max(0, deadline - Date.now());
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlinePassed(`the database did not answer within ${Math.round(ms / 100) / 10} s`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
