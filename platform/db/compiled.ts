import type { Compilable, CompiledQuery } from "kysely";
import type { DB } from "./index";

/**
 * A query Kysely builds and compiles once per database, then runs with each call's values. On the
 * paths every request takes (the caller's session, the chat's model, the API token), building the
 * query costs more than the database answering it, and a chat's first token waits for both.
 *
 * `build` is called once, with stand-ins for the values; each value must go into the query as given
 * (not transformed), since the stand-ins are swapped for the call's values in the compiled parameters.
 */
export function compiledOnce<Args extends (string | number | null)[], Row>(build: (db: DB, ...args: Args) => Compilable<Row>) {
  // Keyed by the dialect's adapter, which a database and its transactions share: a query compiled once
  // runs inside any transaction too (a transaction is a new Kysely object each time).
  const queries = new WeakMap<object, { query: CompiledQuery<Row>; slots: number[] }>();
  return async (db: DB, ...args: Args): Promise<Row[]> => {
    const key = db.getExecutor().adapter;
    let compiled = queries.get(key);
    if (!compiled) {
      const standIns = args.map((_, i) => `\u0000compiledOnce:${i}`);
      const query = build(db, ...(standIns as Args)).compile();
      compiled = { query, slots: query.parameters.map((p) => standIns.indexOf(p as string)) };
      if (compiled.slots.filter((s) => s !== -1).length !== args.length) throw new Error("compiledOnce: every value must appear once in the query");
      queries.set(key, compiled);
    }
    const { query, slots } = compiled;
    const parameters = query.parameters.map((p, i) => (slots[i] === -1 ? p : args[slots[i]]));
    return (await db.executeQuery<Row>({ ...query, parameters })).rows;
  };
}
