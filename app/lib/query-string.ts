/** `?name=value&…` from the values that are set (not undefined, null or ""); "" when none is. */
export function queryString(values: Record<string, string | number | null | undefined>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) if (value !== undefined && value !== null && value !== "") search.set(name, String(value));
  const text = search.toString();
  return text ? `?${text}` : "";
}
