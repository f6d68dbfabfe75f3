import { z } from "zod";
import { consoleCookie } from "~/cookies.server";

/**
 * A refused ledger export, carried once from the CSV route back to /billing (billing.ledger[.]csv.ts): which
 * refusal it was (a code, never the text: nobody can put words of their own in the page's alert) and the
 * dates as typed. A one-shot flash, not the URL: an export that works afterwards is a download, which
 * leaves the page and its URL as they are, so a refusal in the URL stayed there and came back on reload.
 */
const exportRefusalSchema = z.object({
  error: z.enum(["reversed", "invalid"]),
  from: z.string().max(20),
  to: z.string().max(20),
});
export type ExportRefusal = z.infer<typeof exportRefusalSchema>;

/** Only the export's page and its CSV route see it. */
const exportRefusalCookie = consoleCookie("export_refusal", { httpOnly: true, sameSite: "lax", path: "/billing", maxAge: 60 });

export async function exportRefusalHeader(refusal: ExportRefusal): Promise<string> {
  return exportRefusalCookie().serialize(refusal);
}

/** The refusal for this page load, if any, and the header that clears it. */
export async function takeExportRefusal(request: Request): Promise<{ refusal: ExportRefusal | null; header: string | null }> {
  const cookie = exportRefusalCookie();
  const stored: unknown = await cookie.parse(request.headers.get("cookie"));
  if (stored === null || stored === undefined || stored === "") return { refusal: null, header: null };
  const parsed = exportRefusalSchema.safeParse(stored);
  return { refusal: parsed.success ? parsed.data : null, header: await cookie.serialize("", { maxAge: 0 }) };
}
