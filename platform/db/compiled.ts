import type { Compilable, CompiledQuery } from "kysely";
import { ValueNode } from "kysely";
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
      if (boundPageSize(query, standIns)) throw new Error("compiledOnce: a LIMIT or OFFSET must be written into the query: use compiledPerPageSize");
      queries.set(key, compiled);
    }
    const { query, slots } = compiled;
    const parameters = query.parameters.map((p, i) => (slots[i] === -1 ? p : args[slots[i]]));
    return (await db.executeQuery<Row>({ ...query, parameters })).rows;
  };
}

/**
 * A LIMIT or OFFSET taken as a value would stay a bound parameter, and SQLite prepares such a statement
 * again at every run (inline-limits.ts): most of what compiling once saves, lost on the pages' own lists.
 */
function boundPageSize(query: CompiledQuery, standIns: string[]): boolean {
  const node = query.query;
  if (node.kind !== "SelectQueryNode") return false;
  return [node.limit?.limit, node.offset?.offset].some((value) => value !== undefined && ValueNode.is(value) && standIns.includes(value.value as string));
}

/**
 * `compiledOnce` for a page of a list: one compiled query per page size, its LIMIT written into the SQL
 * (inline-limits.ts). The sizes are the contract's page limits, so there are at most that many.
 */
export function compiledPerPageSize<Args extends (string | number | null)[], Row>(build: (db: DB, limit: number, ...args: Args) => Compilable<Row>) {
  const bySize = new Map<number, (db: DB, ...args: Args) => Promise<Row[]>>();
  return (db: DB, limit: number, ...args: Args): Promise<Row[]> => {
    let query = bySize.get(limit);
    if (!query) bySize.set(limit, (query = compiledOnce((db: DB, ...values: Args) => build(db, limit, ...values))));
    return query(db, ...args);
  };
}
