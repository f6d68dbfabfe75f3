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
