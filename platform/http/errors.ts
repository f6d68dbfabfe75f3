import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ErrorBody, FieldErrors } from "@contract/errors";

/**
 * The platform's one way to refuse (DESIGN §3): thrown by middleware, validators, handlers and
 * services alike; the app's `onError` writes it as the contract's `{error, fields?}`. `fields` names
 * the refused form fields, by the console's field names, so a form shows each message by its field.
 */
export class PlatformError extends Error {
  readonly fields?: FieldErrors;
  /** Sent with the body, e.g. Retry-After. */
  readonly headers?: Record<string, string>;

  constructor(
    readonly status: ContentfulStatusCode,
    message: string,
    options: { fields?: FieldErrors; headers?: Record<string, string> } = {},
  ) {
    // A refusal is an answer, not a fault: nothing reads where it was thrown, and capturing the stack
    // cost a page that is refused a call (no Stripe: /billing) about a percent of its time.
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = stackTraceLimit;
    if (options.fields && Object.keys(options.fields).length > 0) this.fields = options.fields;
    this.headers = options.headers;
  }

  get body(): ErrorBody {
    return this.fields ? { error: this.message, fields: this.fields } : { error: this.message };
  }
}
