import { STREAM_KEEP_ALIVE_MS } from "@contract/sse";

/**
 * How long a reply's body may send nothing before the chat counts the connection lost. The platform
 * is never silent for two keep-alive ticks while a model thinks, so three mean the connection died
 * without closing (a laptop's lid, a dropped Wi-Fi): no FIN ever comes, and the reply would show
 * "streaming" until Stop.
 */
export const STREAM_SILENCE_MS = 3 * STREAM_KEEP_ALIVE_MS;

/**
 * `reader.read()`, but a read that waits longer than `ms` cancels the body, which ends the read as
 * the body's end; `silent` then says why it ended.
 */
export function readUntilSilent<T>(reader: ReadableStreamDefaultReader<T>, ms = STREAM_SILENCE_MS) {
  let silent = false;
  return {
    async read(): Promise<ReadableStreamReadResult<T>> {
      const timer = setTimeout(() => {
        silent = true;
        reader.cancel().catch(() => {});
      }, ms);
      try {
        return await reader.read();
      } finally {
        clearTimeout(timer);
      }
    },
    get silent() {
      return silent;
    },
  };
}
