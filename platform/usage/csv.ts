/** CSV files of the ledger, of usage and of the audit log (issue 16): RFC 4180 lines, streamed page by page. */

/** Rows read per query: memory stays at one page whatever the size of the export. */
export const CSV_PAGE = 1000;

/** Exact dollars from micro-dollars, no float on the way: -1234567 → `-1.234567`. */
export function formatMicros(micros: number): string {
  const n = Math.round(Number(micros));
  const abs = Math.abs(n);
  return `${n < 0 ? "-" : ""}${Math.floor(abs / 1_000_000)}.${String(abs % 1_000_000).padStart(6, "0")}`;
}

/**
 * One field: quoted when it holds a separator, quote or line break. Text a spreadsheet would run as a
 * formula (`=`, `+`, `-`, `@`, tab, CR first) gets a leading `'`: names and descriptions come from users.
 */
export function csvText(value: string | null | undefined): string {
  if (value === null || value === undefined) return "";
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** A number or an amount already formatted: never quoted, never prefixed. */
export type CsvCell = { raw: string } | string | null | undefined;

export function csvLine(cells: readonly CsvCell[]): string {
  return `${cells.map((c) => (typeof c === "object" && c !== null ? c.raw : csvText(c))).join(",")}\r\n`;
}

/**
 * UTF-8's byte order mark, first in every file: without it Excel opens a double-clicked CSV in the
 * system's ANSI code page, and Arabic, Hebrew, Chinese or emoji names turn to mojibake.
 */
const CSV_BOM = "\uFEFF";

/**
 * A streamed CSV answer: the byte order mark and the header, then each page `next` yields, pulled only as the client reads
 * (back-pressure), so a million rows never sit in memory. A failure mid-way aborts the body, so a
 * truncated file is never mistaken for a whole one.
 */
export function csvResponse(filename: string, header: readonly string[], pages: AsyncIterator<string[]>): Response {
  const encoder = new TextEncoder();
  let started = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode(CSV_BOM + csvLine(header)));
        return;
      }
      try {
        const page = await pages.next();
        if (page.done) controller.close();
        else controller.enqueue(encoder.encode(page.value.join("")));
      } catch (error) {
        console.error("CSV export failed:", error);
        controller.error(error);
      }
    },
    async cancel() {
      await pages.return?.();
    },
  });
  return new Response(body, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${filename}"`,
      "cache-control": "no-store",
    },
  });
}
