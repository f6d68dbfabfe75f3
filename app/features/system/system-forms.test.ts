import { describe, expect, it } from "vitest";
import { parseForm } from "~/lib/parse-form";
import type { ModelFormValues } from "./model-form";
import { EMPTY_MODEL_FORM, modelFieldErrorsOf, modelForm, readModelForm, valuesOf } from "./model-form";
import { orgEditorForm } from "./org-form";

/** The form as the model editor's action reads it: sent as a browser sends it (a checked box as "on"), parsed by conform. */
function parseModelForm(values: ModelFormValues) {
  const form = new FormData();
  for (const [field, value] of Object.entries(values)) {
    if (typeof value === "string") form.append(field, value);
    else if (value) form.append(field, "on");
  }
  const submission = parseForm(form, { schema: modelForm, asTyped: true });
  if (submission.status === "success") return { ok: true as const, ...submission.value };
  return { ok: false as const, errors: Object.fromEntries(Object.entries(submission.error ?? {}).map(([field, messages]) => [field, messages?.[0]])) };
}

const filled = { ...EMPTY_MODEL_FORM, name: "qwen", displayName: "Qwen", provider: "vllm", contextSize: "32768", baseUrl: "http://upstream.test/v1" };

describe("the model form", () => {
  it("turns the fields into the platform's body, a blank key keeping the current one", () => {
    expect(parseModelForm(filled)).toEqual({
      ok: true,
      name: "qwen",
      body: { displayName: "Qwen", provider: "vllm", contextSize: 32768, baseUrl: "http://upstream.test/v1", rateCard: null, status: null },
    });
  });

  it("sends a new key, or null when the operator removes it", () => {
    const withKey = parseModelForm({ ...filled, apiKey: " sk-new ", upstreamModel: "Qwen/Qwen3", status: "standby" });
    expect(withKey.ok && withKey.body).toMatchObject({ apiKey: "sk-new", upstreamModel: "Qwen/Qwen3", status: "standby" });
    const cleared = parseModelForm({ ...filled, apiKey: "sk-ignored", clearApiKey: true });
    expect(cleared.ok && cleared.body.apiKey).toBeNull();
  });

  it("builds the rate card when one is named, a blank price reading 0", () => {
    const result = parseModelForm({ ...filled, rateCardId: "rc-qwen", inputPerMillion: "0.5", outputPerMillion: "" });
    expect(result.ok && result.body.rateCard).toEqual({ id: "rc-qwen", inputPerMillion: 0.5, outputPerMillion: 0 });
  });

  it("names each bad field", () => {
    const result = parseModelForm({
      ...EMPTY_MODEL_FORM,
      name: "bad name",
      displayName: " ",
      contextSize: "12.5",
      provider: "vllm",
      inputPerMillion: "-1",
      status: "gone",
    });
    expect(result).toEqual({
      ok: false,
      errors: {
        name: "Use letters, digits and . _ : / - only",
        displayName: "Display name is required",
        contextSize: "Enter a whole number of tokens",
        status: "Choose a status override",
      },
    });
    const second = parseModelForm({ ...filled, baseUrl: "", inputPerMillion: "-1" });
    expect(second).toEqual({
      ok: false,
      errors: {
        baseUrl: "An upstream model needs a base URL",
        rateCardId: "Name the rate card, or leave all three prices blank",
        inputPerMillion: "Enter a price in dollars, such as 0.50",
      },
    });
    expect(parseModelForm({ ...filled, baseUrl: "ftp://x" })).toEqual({ ok: false, errors: { baseUrl: "Enter a URL starting with http:// or https://" } });
  });

  it("refuses a name with a . or .. part under the name, keeping the rest (it would reach another model's URL)", () => {
    expect(parseModelForm({ ...filled, name: "team/../prod" })).toEqual({ ok: false, errors: { name: "A part between slashes can't be . or .." } });
    expect(parseModelForm({ ...filled, name: "x/./y" })).toEqual({ ok: false, errors: { name: "A part between slashes can't be . or .." } });
    expect(parseModelForm({ ...filled, name: "org/v1.5" }).ok).toBe(true);
  });

  it("refuses a name with an empty part under the name, as the platform does (its /models link would lose the part)", () => {
    const refused = { ok: false, errors: { name: "A part between slashes can't be empty: no / at the start or end, and no //" } };
    for (const name of ["edge//double", "/lead", "trailing/"]) expect(parseModelForm({ ...filled, name })).toEqual(refused);
    expect(parseModelForm({ ...filled, name: "org/model:tag" }).ok).toBe(true);
  });

  it("refuses a base URL the platform would refuse, and a key with a line break, under their fields", () => {
    const baseUrlError = (baseUrl: string) => {
      const result = parseModelForm({ ...filled, baseUrl });
      return result.ok ? null : result.errors.baseUrl;
    };
    expect(baseUrlError("http://u:p@upstream.test/v1")).toBe("Put the key under API key: a base URL can't hold a user name or password");
    expect(baseUrlError("http://upstream.test/v1?key=1")).toMatch(/^A base URL can't have a query/);
    expect(baseUrlError("http://upstream.test/v1#x")).toMatch(/^A base URL can't have a query/);
    expect(baseUrlError("http:/upstream.test")).toBe("Enter a URL starting with http:// or https://");
    expect(baseUrlError("javascript:alert(1)")).toBe("Enter a URL starting with http:// or https://");
    expect(parseModelForm({ ...filled, apiKey: "sk-a\r\nX-Evil: 1" })).toEqual({
      ok: false,
      errors: { apiKey: "An API key can't hold line breaks, control characters or characters outside ASCII" },
    });
  });

  it("lets the built-in provider go without a base URL", () => {
    expect(parseModelForm({ ...filled, provider: "builtin", baseUrl: "" }).ok).toBe(true);
  });

  it("reads submitted fields as text and fills from a stored model without its key", () => {
    const values = readModelForm({ mode: "edit", name: "x", clearApiKey: "on", contextSize: "5" });
    expect(values).toMatchObject({ mode: "edit", name: "x", clearApiKey: true, contextSize: "5", displayName: "", apiKey: "" });
    const stored = valuesOf({
      name: "qwen",
      displayName: "Qwen",
      provider: "vllm",
      contextSize: 100,
      baseUrl: null,
      upstreamModel: "q",
      hasApiKey: true,
      rateCard: { id: "rc", inputPerMillion: 1, outputPerMillion: 2 },
      status: "maintenance",
    });
    expect(stored).toMatchObject({
      mode: "edit",
      apiKey: "",
      baseUrl: "",
      rateCardId: "rc",
      inputPerMillion: "1",
      outputPerMillion: "2",
      status: "maintenance",
    });
  });

  it("places the platform's per-field refusals next to their fields", () => {
    expect(modelFieldErrorsOf({ baseUrl: "An upstream model needs a base URL" })).toEqual({ baseUrl: "An upstream model needs a base URL" });
    expect(modelFieldErrorsOf({ "rateCard.id": "Required", "rateCard.outputPerMillion": "Too big" })).toEqual({
      rateCardId: "Required",
      outputPerMillion: "Too big",
    });
    expect(modelFieldErrorsOf({ somethingElse: "?" })).toBeNull();
    expect(modelFieldErrorsOf(undefined)).toBeNull();
  });

  it("parses a submitted form as conform does, blank fields meaning none", () => {
    const form = new FormData();
    for (const [k, v] of Object.entries({
      intent: "save",
      mode: "add",
      name: "qwen",
      displayName: "Qwen",
      provider: "vllm",
      contextSize: "32768",
      baseUrl: "http://upstream.test/v1",
      apiKey: "",
      rateCardId: "",
      inputPerMillion: "",
      outputPerMillion: "",
      status: "",
    }))
      form.append(k, v);
    const submission = parseForm(form, { schema: modelForm, asTyped: true });
    expect(submission.status === "success" && submission.value).toEqual({
      name: "qwen",
      body: { displayName: "Qwen", provider: "vllm", contextSize: 32768, baseUrl: "http://upstream.test/v1", rateCard: null, status: null },
    });
    form.set("inputPerMillion", "abc");
    const refused = parseForm(form, { schema: modelForm, asTyped: true });
    expect(refused.status === "error" && refused.error).toMatchObject({
      rateCardId: ["Name the rate card, or leave all three prices blank"],
      inputPerMillion: ["Enter a price in dollars, such as 0.50"],
    });
  });
});

describe("the organization editor's forms", () => {
  it("accepts a rename and a payment mode, and refuses the rest", () => {
    expect(orgEditorForm.parse({ intent: "rename", orgId: "4", name: "  Acme " })).toEqual({ intent: "rename", orgId: 4, name: "Acme" });
    expect(orgEditorForm.parse({ intent: "payment-mode", orgId: "4", paymentMode: "invoice" })).toEqual({
      intent: "payment-mode",
      orgId: 4,
      paymentMode: "invoice",
    });
    expect(orgEditorForm.safeParse({ intent: "rename", orgId: "4", name: " " }).error?.issues[0].message).toBe("Organization name is required");
    expect(orgEditorForm.safeParse({ intent: "payment-mode", orgId: "4", paymentMode: "free" }).success).toBe(false);
    expect(orgEditorForm.safeParse({ intent: "rename", orgId: "x", name: "A" }).success).toBe(false);
  });
});

describe("the model form's reliability fields (issue 17)", () => {
  const base = { ...EMPTY_MODEL_FORM, name: "qwen", displayName: "Qwen", baseUrl: "http://upstream.test/v1" };

  it("sends the thresholds and publication when set, and leaves blanks out", () => {
    const set = parseModelForm({ ...base, alertErrorRatePct: " 5 ", alertTtftMs: "1500", publishMetrics: true });
    expect(set.ok && set.body).toMatchObject({ alertErrorRatePct: 5, alertTtftMs: 1500, publishMetrics: true });
    const blank = parseModelForm(base);
    expect(blank.ok && [blank.body.alertErrorRatePct, blank.body.alertTtftMs, blank.body.publishMetrics]).toEqual([undefined, undefined, undefined]);
    expect(readModelForm({ publishMetrics: "on", alertTtftMs: "9" })).toMatchObject({ publishMetrics: true, alertTtftMs: "9" });
  });

  it("refuses thresholds out of range, by field", () => {
    expect(parseModelForm({ ...base, alertErrorRatePct: "101" })).toEqual({
      ok: false,
      errors: { alertErrorRatePct: "Enter a whole percentage from 0 to 100" },
    });
    expect(parseModelForm({ ...base, alertErrorRatePct: "2.5" })).toEqual({
      ok: false,
      errors: { alertErrorRatePct: "Enter a whole percentage from 0 to 100" },
    });
    expect(parseModelForm({ ...base, alertTtftMs: "0" })).toEqual({ ok: false, errors: { alertTtftMs: "Between 1 and 600,000 ms" } });
    expect(parseModelForm({ ...base, alertTtftMs: "fast" })).toEqual({ ok: false, errors: { alertTtftMs: "Enter a whole number of milliseconds" } });
    expect(modelFieldErrorsOf({ alertTtftMs: "Too big" })).toEqual({ alertTtftMs: "Too big" });
  });
});
