import { z } from "zod";

/**
 * Ids on the wire (decision 0127). Every id column is PostgreSQL's `integer` (`serial`), so no id is
 * larger than ID_MAX; PostgreSQL refuses even to compare such a column with a larger number (SQLSTATE
 * 22003, which was a 500), where SQLite simply finds nothing. So a number past ID_MAX is held to what
 * it means, before any query, on both databases: it names nothing.
 * - in a path (`idFromUrl`): refused, which the routes answer 404;
 * - as a thing to find (`idToFind`, a filter, the organization to switch to): it finds nothing
 *   (it becomes NO_SUCH_ID), so the answer is the same 404 or empty list as any unknown id;
 * - as a keyset cursor: `before` past it bounds nothing (`beforeId`), `after` past it leaves nothing (`afterId`).
 *
 * An id or a count is written one way (decision 0140): in a path or a query, decimal digits alone; in
 * a JSON body, a JSON number. JavaScript's Number() also read `0x10`, `1e1`, `3.0`, ` 3`, `true` and
 * `[2]` as numbers, so each named a thing its text did not (`/organizations/members/0x2` was member 2).
 */
export const ID_MAX = 2_147_483_647;

/** What an id past ID_MAX is looked up as: no row has it (ids start at 1; 0 is "none" in the usage rollups). */
export const NO_SUCH_ID = -1;

/** An id the database can hold: a positive integer no larger than ID_MAX (a JSON number). */
export const idSchema = z.number().int().positive().max(ID_MAX);

/**
 * A number from a URL's text: decimal digits, nothing else, so always a whole number (digits too many
 * for a double read as Infinity: past any id or limit, as they are). `message` names what was expected.
 */
export const urlNumber = (message = "must be a whole number, in digits") => z.string().regex(/^\d+$/, message).transform(Number);

/** The same from a URL's text (a path parameter: the routes answer anything else as not found). */
export const idFromUrl = urlNumber().pipe(z.number().positive().max(ID_MAX));

/** `limit` of a list, from a URL: 1 to `max` rows (a larger one is refused, not capped). */
export const pageLimit = (max: number) => urlNumber().pipe(z.number().min(1).max(max));

/** An id past ID_MAX, as an id to look up: one that finds nothing. */
export const pastIdsFindNothing = (id: number): number => (id > ID_MAX ? NO_SUCH_ID : id);

const positiveFromUrl = urlNumber().pipe(z.number().positive());

/** An id to look up, from a JSON body (`number`) or a URL (`text`); one past ID_MAX finds nothing. */
export const idToFind = {
  number: z.number().int().positive().transform(pastIdsFindNothing),
  text: positiveFromUrl.transform(pastIdsFindNothing),
};

/** `before` (keyset paging, older than this id), from a URL: one past ID_MAX is older than nothing, so no bound. */
export const beforeId = positiveFromUrl.transform((id) => (id > ID_MAX ? undefined : id));

/** `after` (keyset paging, newer than this id), from a URL: one past ID_MAX leaves nothing newer. */
export const afterId = positiveFromUrl.transform((id) => Math.min(id, ID_MAX));
