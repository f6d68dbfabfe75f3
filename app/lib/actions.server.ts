import { data, redirect } from "@remix-run/node";
import type { Toast } from "~/toast.server";
import { toastHeader } from "~/toast.server";

/**
 * The status a route answers for a refused platform call: the platform's own 4xx (the form was
 * refused, the thing is gone), but 502 for its 5xx, which are not the console's fault.
 */
export function platformStatus(code: number): number {
  return code >= 500 ? 502 : code;
}

/**
 * Success is a redirect with a toast (it survives a reload and works without JavaScript); only a
 * secret or a code shown once travels in action data instead (DESIGN §6, decision 0081).
 */
export async function redirectWithToast(to: string, toast: Toast, init?: { headers?: Headers }): Promise<Response> {
  const headers = new Headers(init?.headers);
  headers.append("Set-Cookie", await toastHeader(toast));
  return redirect(to, { headers });
}

/** The submitted form, or a 400 answer when the body is not a form at all (instead of a 500). */
export async function readForm(request: Request): Promise<FormData> {
  try {
    return await request.formData();
  } catch {
    throw data({ error: "The form could not be read." }, { status: 400 });
  }
}
