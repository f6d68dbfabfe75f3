/**
 * Whether PostgreSQL refused a statement for a NUL character in text (SQLSTATE 22021; 22P05 in JSON):
 * the request's fault, not the server's. SQLite stores NUL, so inputs that reach a statement are
 * refused up front (`valid`); this answers the few read straight from a path or a body (decision 0130).
 */
export function nulRefusedByDatabase(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return error instanceof Error && (code === "22021" || code === "22P05");
}

export const NUL_REFUSED_MESSAGE = "The request holds a NUL character, which is not accepted";
