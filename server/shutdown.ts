import type http from "node:http";

/**
 * The platform's streamed replies (chat), so a shutdown can end the ones still running after the
 * drain time: cancelling a reply's body is what the chat service meters as "stopped", and the cancel
 * resolves once that usage is written.
 */
export function createStreamTracker() {
  const running = new Set<() => Promise<void>>();
  return {
    get size() {
      return running.size;
    },
    /** The response, its event-stream body passed through a stream the shutdown can cancel. */
    track(response: Response): Response {
      // The content type first: asking a JSON reply for its body would make Hono's light Response build a
      // web stream, and the adapter then write it chunk by chunk instead of as one string. And the headers
      // are taken before the body: a light Response asked for its body is rebuilt from its first headers,
      // which drops those set on it since (CORS, rate limits: decision 0098).
      const headers = response.headers;
      if (!String(headers.get("content-type")).includes("text/event-stream") || !response.body) return response;
      const reader = response.body.getReader();
      let stop: () => Promise<void>;
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          stop = async () => {
            running.delete(stop);
            // The client is told why the reply ends short (OpenAI's SDKs throw on an error event), then
            // sees it end; the source meters what was sent.
            try {
              controller.enqueue(SHUTTING_DOWN);
            } catch {
              // Already ended by its client.
            }
            await reader.cancel("The server is shutting down");
          };
          running.add(stop);
        },
        async pull(controller) {
          let next: ReadableStreamReadResult<Uint8Array>;
          try {
            next = await reader.read();
          } catch (error) {
            running.delete(stop);
            throw error;
          }
          const { done, value } = next;
          if (done) {
            running.delete(stop);
            controller.close();
          } else controller.enqueue(value);
        },
        async cancel(reason) {
          running.delete(stop);
          await reader.cancel(reason);
        },
      });
      return new Response(body, { status: response.status, statusText: response.statusText, headers });
    },
    /** Ends every running stream; resolves when their sources finished (metered). */
    async cancelAll(): Promise<void> {
      await Promise.allSettled([...running].map((stop) => stop()));
    },
  };
}

const SHUTTING_DOWN = new TextEncoder().encode(
  `data: ${JSON.stringify({ error: { message: "The server is shutting down: the reply was stopped. Try again.", type: "server_error", param: null, code: "server_shutting_down" } })}\n\n`,
);

export type StreamTracker = ReturnType<typeof createStreamTracker>;

export interface ShutdownOptions {
  servers: http.Server[];
  streams: StreamTracker;
  /** Makes requests still waiting for an answer give up and answer 503 (the platform's `stopRequests`). */
  stopRequests?: () => void;
  /** Closes what the servers used (the platform's database), by `deadline` (epoch ms): the shutdown's own, less a moment to exit. */
  close: (deadline: number) => Promise<void>;
  /** How long in-flight requests and streams may take to finish on their own. */
  timeoutMs: number;
  log?: (message: string) => void;
  exit?: (code: number) => void;
}

/** What a shutdown may take past `timeoutMs` to stop streams and close the database before it exits 1. */
const HARD_EXTRA_MS = 10_000;
/** Of that, what is kept to log and exit after the database closed, or was given up. */
const EXIT_MS = 500;
/** How long stopped streams may take to write their metering. */
const CANCEL_WAIT_MS = 3_000;

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/**
 * Stops accepting, lets in-flight requests and streams finish for up to `timeoutMs`, then cancels the
 * streams still running (metered as stopped) and the requests still waiting for an answer (503), closes
 * the remaining connections and the database, and
 * exits 0. A second signal exits at once (1).
 */
export function handleShutdown(options: ShutdownOptions): { draining: () => boolean; shutdown: (reason: string) => Promise<void> } {
  const { servers, streams, stopRequests = () => {}, close, timeoutMs, log = console.log, exit = process.exit } = options;
  let started = false;

  async function shutdown(reason: string): Promise<void> {
    if (started) {
      log(`${reason} again: exiting without waiting`);
      exit(1);
      return;
    }
    started = true;
    const t0 = Date.now();
    log(`${reason}: shutting down, in-flight requests have ${timeoutMs} ms to finish`);
    // If anything below hangs, the process still ends (a supervisor would kill it anyway).
    setTimeout(() => {
      log("Shutdown did not complete in time: exiting");
      exit(1);
    }, timeoutMs + HARD_EXTRA_MS).unref();
    // The database's writes fit in that: one that stopped answering is given up, named in the log.
    const closeBy = t0 + timeoutMs + HARD_EXTRA_MS - EXIT_MS;

    const closed = Promise.all(servers.map((s) => new Promise<void>((resolve) => (s.listening ? s.close(() => resolve()) : resolve()))));
    // Keep-alive connections that finish their request become idle: close them as they do.
    const idle = setInterval(() => servers.forEach((s) => s.closeIdleConnections()), 100);
    servers.forEach((s) => s.closeIdleConnections());

    const finished = await Promise.race([closed.then(() => true), wait(timeoutMs).then(() => false)]);
    if (!finished) {
      if (streams.size > 0) log(`Stopping ${streams.size} stream(s) still running`);
      stopRequests();
      // A stopped stream's metering waits for the database: one that does not answer leaves its hold,
      // with the progress it recorded, for the sweeper to charge (decision 0102).
      const metered = await Promise.race([streams.cancelAll().then(() => true), wait(CANCEL_WAIT_MS).then(() => false)]);
      if (!metered) log(`Stopped streams not metered: the database did not answer within ${CANCEL_WAIT_MS / 1000} s; the sweeper charges their holds`);
      // A cancelled stream, and a request that gave up, end their responses normally; give those a
      // moment to flush, then cut the rest.
      await Promise.race([closed, wait(1_000)]);
      servers.forEach((s) => s.closeAllConnections());
    }
    clearInterval(idle);
    try {
      await close(closeBy);
    } catch (error) {
      log(`Closing the database failed: ${error instanceof Error ? error.message : String(error)}`);
      exit(1);
      return;
    }
    log(`Shut down in ${Date.now() - t0} ms`);
    exit(0);
  }

  return { draining: () => started, shutdown };
}
