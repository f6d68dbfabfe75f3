import http from "node:http";

export interface RawAnswer {
  status: number;
  body: string;
  headers: http.IncomingHttpHeaders;
  /** Bytes of the body written before the answer came. */
  sent: number;
}

export interface RawRequest {
  method: string;
  path: string;
  /** The Host header (a browser's would be `localhost:port`): tests forge others. */
  host?: string;
  headers?: Record<string, string>;
  /** A body of this many bytes, declared with Content-Length unless `chunked`. */
  bytes?: number;
  chunked?: boolean;
}

/**
 * For tests of the server as it runs: one request to 127.0.0.1:`port`, outside any client's rules (a
 * forged Host, a body larger than any limit). The body is written in 64 KB chunks as fast as the socket
 * takes them, and writing stops as soon as the answer arrives, as a server that refuses early expects.
 */
export function rawRequest(port: number, options: RawRequest): Promise<RawAnswer> {
  const bytes = options.bytes ?? 0;
  const headers: Record<string, string> = { host: options.host ?? `localhost:${port}`, ...options.headers };
  if (bytes > 0 && !options.chunked) headers["content-length"] = String(bytes);
  return new Promise((resolve, reject) => {
    let answered = false;
    let sent = 0;
    const req = http.request({ host: "127.0.0.1", port, method: options.method, path: options.path, headers, agent: false });
    req.on("response", (res) => {
      answered = true;
      const parts: Buffer[] = [];
      const answer = () => ({ status: res.statusCode ?? 0, body: Buffer.concat(parts).toString(), headers: res.headers, sent });
      res.on("data", (d: Buffer) => parts.push(d));
      res.on("end", () => {
        resolve(answer());
        req.destroy();
      });
      res.on("error", () => resolve(answer()));
    });
    req.on("error", (error) => {
      if (!answered) reject(error);
    });
    if (bytes === 0) return void req.end();
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    const write = () => {
      while (!answered && sent < bytes && !req.destroyed) {
        const n = Math.min(chunk.length, bytes - sent);
        sent += n;
        if (!req.write(chunk.subarray(0, n))) return void req.once("drain", write);
      }
      if (!answered && !req.destroyed) req.end();
    };
    write();
  });
}
