/**
 * A request id a proxy in front may send (`X-Request-Id`), taken as the request's own: a plain token,
 * so a log line can't be forged through it (decision 0101).
 */
export const PLAIN_REQUEST_ID = /^[\w.:@+=/-]{1,128}$/;
