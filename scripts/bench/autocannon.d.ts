// The few parts of autocannon's API the benchmark uses (it ships no types of its own).
declare module "autocannon" {
  interface Options {
    url: string;
    method?: "GET" | "POST";
    body?: string;
    headers?: Record<string, string>;
    connections?: number;
    duration?: number;
  }
  interface Result {
    non2xx: number;
    errors: number;
    requests: { average: number; total: number };
    latency: { p50: number; p99: number };
  }
  export default function autocannon(options: Options): Promise<Result>;
}
