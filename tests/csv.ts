/**
 * An export's bytes as text, after the UTF-8 byte order mark every export starts with (Excel reads the
 * file as UTF-8 only with it); throws without it. Strict UTF-8, and a second mark stays in the text.
 * Bytes, not `Response.text()`: the Fetch standard's decoding drops the mark unseen.
 */
export function afterBom(bytes: ArrayBuffer | Uint8Array): string {
  const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  if (view[0] !== 0xef || view[1] !== 0xbb || view[2] !== 0xbf) {
    throw new Error(`The CSV does not start with the UTF-8 byte order mark: ${JSON.stringify(new TextDecoder().decode(view.subarray(0, 12)))}…`);
  }
  return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(view.subarray(3));
}

/** Reading the CSV exports in tests: RFC 4180 cells, no quoted line breaks (a line is a row). */
export function parseCsv(text: string): string[][] {
  return text
    .trimEnd()
    .split("\r\n")
    .map((line) =>
      line
        .match(/("([^"]|"")*"|[^,]*)(,|$)/g)!
        .slice(0, -1)
        .map((cell) =>
          cell
            .replace(/,$/, "")
            .replace(/^"(.*)"$/, "$1")
            .replaceAll('""', '"'),
        ),
    );
}

/** An exported amount ("-0.001234") as integer micro-dollars, without going through a float. */
export function micros(amount: string): number {
  const [whole, fraction] = amount.replace("-", "").split(".");
  return (amount.startsWith("-") ? -1 : 1) * (Number(whole) * 1_000_000 + Number(fraction));
}
