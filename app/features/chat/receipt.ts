import type { Receipt } from "~/platform/chat";

/**
 * Said when the platform has no such receipt for the active organization: a receipt is written a moment
 * after its reply ends (decision 0030), and only the organization that paid for the reply has it.
 */
export const RECEIPT_NOT_FOUND = "Receipt not found in the active organization (it is written a moment after the reply ends)";
const RECEIPT_FAILED = "Failed to load receipt";

/** A reply's receipt from the chat's resource route, or what to say instead: a refusal in the platform's words. */
export async function loadReceipt(id: string, load: typeof fetch = fetch): Promise<{ ok: true; receipt: Receipt } | { ok: false; message: string }> {
  try {
    const response = await load(`/resources/chat?receipt=${encodeURIComponent(id)}`);
    if (response.ok) return { ok: true, receipt: (await response.json()) as Receipt };
    if (response.status === 404) return { ok: false, message: RECEIPT_NOT_FOUND };
    const body = (await response.json().catch(() => null)) as { error?: unknown } | null;
    return { ok: false, message: typeof body?.error === "string" && body.error ? body.error : RECEIPT_FAILED };
  } catch {
    return { ok: false, message: RECEIPT_FAILED };
  }
}
