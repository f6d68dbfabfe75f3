import type { AppLoadContext } from "@remix-run/node";
import type { ZodType, ZodTypeDef } from "zod";
import type { ErrorBody } from "@contract/errors";
import { readErrorBody } from "@contract/errors";
import { redactUrl } from "@contract/redact";
import { PAGE_ORGANIZATION_HEADER } from "@contract/session";
import { createdOrgSchema, okSchema, orgConfigSchema, sessionSchema } from "./schemas";

/**
 * A failed answer carries the contract's human `error` and, for a refused form, its per-field messages.
 * `logged` marks a failure the client met and logged itself (no answer, or one it could not read): its
 * callers' own warning would be a second line for it, on every 30 s poll of every open page.
 */
export type ApiResult<T> = { ok: true; status: number; data: T } | { ok: false; status: number; error: string; fields?: Record<string, string>; logged?: true };

/** The failed answer's contract body `{error, fields?}` (see the contract's `readErrorBody`). */
export async function errorBody(response: Response, fallback: string): Promise<ErrorBody> {
  return readErrorBody(await response.text().catch(() => ""), fallback);
}

export async function errorText(response: Response, fallback: string): Promise<string> {
  return (await errorBody(response, fallback)).error;
}

type Method = "GET" | "POST" | "PUT" | "DELETE";

/**
 * What a log line says of a failed call's error: its message and code, and its cause's (`fetch failed`
 * says nothing alone). Not the stack: a platform that is down fails every poll of every open page alike.
 */
export function failureText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return error.cause instanceof Error ? `${messageAndCode(error)}: ${messageAndCode(error.cause)}` : messageAndCode(error);
}

/** ` (request <id>)`, as the access log and the platform's lines name the page's request (server/request-id.ts). */
export function requestNote(request: Request): string {
  const id = request.headers.get("x-request-id");
  return id ? ` (request ${id})` : "";
}

function messageAndCode(error: Error): string {
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" && !error.message.includes(code) ? `${error.message} (${code})` : error.message;
}

/**
 * One segment of a platform path from a value a user typed or a page's address holds. A segment of dots
 * alone is a step in the path for every URL parser, even written %2E: `/auth/join/..` reached `/auth`
 * and answered "Not found". Escaped twice, it reaches the route meant as a value no route takes ("%2E"),
 * refused there like any other wrong value.
 */
export function pathSegment(value: string): string {
  return value === "." || value === ".." ? value.replaceAll(".", "%252E") : encodeURIComponent(value);
}

/**
 * The console's only way to the platform: one client per request, forwarding the browser's cookie and
 * origin, and collecting the platform's Set-Cookie headers for the response (`client.headers`).
 */
export function platformClient(request: Request, context: AppLoadContext) {
  const setCookies: string[] = [];
  /** The organization this request's action is for, named to the platform with each call (`expectOrganization`). */
  let expected: number | undefined;

  async function send(method: Method, path: string, body?: unknown, signal?: AbortSignal): Promise<Response> {
    const headers = new Headers({ accept: "application/json" });
    const cookie = request.headers.get("cookie");
    if (cookie) headers.set("cookie", cookie);
    const origin = request.headers.get("origin");
    if (origin) headers.set("origin", origin);
    // The platform's per-address limits (invite joins) need the browser's address; it believes this
    // header only from in-process calls like this one (decision 0083).
    if (context.clientAddress) headers.set("x-forwarded-for", context.clientAddress);
    // The page's request id (server/request-id.ts): an error the platform logs names the request it served.
    const requestId = request.headers.get("x-request-id");
    if (requestId) headers.set("x-request-id", requestId);
    if (expected !== undefined) headers.set(PAGE_ORGANIZATION_HEADER, String(expected));
    if (body !== undefined) headers.set("content-type", "application/json");
    const url = new URL(`/api/v1${path}`, request.url).href;
    const response = await context.platformFetch(
      method === "GET" && signal === undefined
        ? { url, method, headers }
        : new Request(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal }),
    );
    setCookies.push(...response.headers.getSetCookie());
    return response;
  }

  async function call<T>(method: Method, path: string, schema: ZodType<T, ZodTypeDef, unknown>, fallback: string, body?: unknown): Promise<ApiResult<T>> {
    // What the error lines name: the platform's path, a join's invite code cut short (README, LOG_REQUESTS),
    // and the page's request id, as the access log and the platform's own lines name it.
    const logged = `Platform ${method} ${redactUrl(`/api/v1${path}`)}${requestNote(request)}`;
    const failed = (line: string) => {
      console.error(line);
      return { ok: false as const, status: 502, error: fallback, logged: true as const };
    };
    let response: Response;
    try {
      response = await send(method, path, body);
    } catch (cause) {
      return failed(`${logged} failed: ${failureText(cause)}`);
    }
    if (!response.ok) return { ok: false, status: response.status, ...(await errorBody(response, fallback)) };
    // A body that breaks off (the platform restarting mid-answer) or is not JSON (a load balancer's page
    // with a 200) is an unexpected answer like a wrong shape: the caller's fallback text, not an error page.
    let answered: unknown;
    try {
      const text = await response.text();
      answered = text ? JSON.parse(text) : null;
    } catch (cause) {
      return failed(`${logged} answered a body that could not be read: ${failureText(cause)}`);
    }
    const parsed = schema.safeParse(answered);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return failed(`${logged} answered an unexpected body: ${issue.path.join(".") || "(body)"}: ${issue.message}`);
    }
    return { ok: true, status: response.status, data: parsed.data };
  }

  return {
    /** Set-Cookie headers the platform sent, for the console's response. */
    get headers(): Headers {
      const headers = new Headers();
      for (const c of setCookies) headers.append("Set-Cookie", c);
      return headers;
    },
    /** The raw call, for routes that stream (chat) or need the Response itself. */
    send,
    call,
    /**
     * Names `organizationId` with every later call: the platform refuses an organization-scoped one
     * (409) if another tab made another organization active since the action checked its page's
     * (decision 0139). A switch, create or join this client makes moves it on.
     */
    expectOrganization: (organizationId: number) => {
      expected = organizationId;
    },
    session: () => call("GET", "/auth/session", sessionSchema, "Failed to load session"),
    logout: () => call("POST", "/auth/logout", okSchema, "Failed to logout"),
    switchOrganization: (organizationId: number) =>
      moves(call("POST", "/auth/switch", okSchema, "Failed to switch organization", { organizationId }), () => organizationId),
    organizationConfig: () => call("GET", "/organizations/config", orgConfigSchema, "Failed to load organization config"),
    createOrganization: (name: string) => moves(call("POST", "/organizations", createdOrgSchema, "Failed to create organization", { name }), (o) => o.id),
    joinOrganization: (code: string) => moves(call("POST", `/auth/join/${pathSegment(code)}`, createdOrgSchema, "Failed to join organization"), (o) => o.id),
  };

  /** A call that makes another organization active: what this client expects follows it. */
  async function moves<T>(result: Promise<ApiResult<T>>, active: (data: T) => number): Promise<ApiResult<T>> {
    const answer = await result;
    if (answer.ok && expected !== undefined) expected = active(answer.data);
    return answer;
  }
}

export type PlatformClient = ReturnType<typeof platformClient>;
