import type { FormMetadata, SubmissionResult } from "@conform-to/react";
import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";

// Conform is patched (patches/, decision 0087's sixth pass): a field keeps its metadata while the form's
// state stays the same, and a fieldset hands out the same field for the same name. What a field says
// must still follow the form's state: at each render, and when read later, as a callback reads it.
type Fields = { name: string };
let seen: { form: FormMetadata<Fields>; fields: ReturnType<FormMetadata<Fields>["getFieldset"]> } | null = null;

function NameForm({ lastResult }: { lastResult?: SubmissionResult<string[]> }) {
  const [form, fields] = useForm<Fields>({ id: "probe", lastResult, defaultValue: { name: "first" }, constraint: { name: { required: true, maxLength: 20 } } });
  seen = { form, fields };
  const { key, ...props } = getInputProps(fields.name, { type: "text" });
  return (
    <form {...getFormProps(form)}>
      <input key={key} {...props} />
      {fields.name.errors ? <p id={fields.name.errorId}>{fields.name.errors.join(", ")}</p> : null}
    </form>
  );
}

/** The form's own context, as conform hands it to `FormProvider`. */
function contextOf(form: FormMetadata<Fields>) {
  const wrapped = form.context as unknown as Record<symbol, { onUpdate: (options: { lastResult: SubmissionResult<string[]> }) => void }>;
  return wrapped[Object.getOwnPropertySymbols(wrapped)[0]!]!;
}

describe("form field metadata", () => {
  it("renders each submission's own values and errors", () => {
    const fresh = renderToStaticMarkup(<NameForm />);
    expect(fresh).toContain('value="first"');
    expect(fresh).toContain('required=""');
    expect(fresh).toContain('maxLength="20"');
    expect(fresh).not.toContain("aria-invalid");

    const refused = renderToStaticMarkup(<NameForm lastResult={{ status: "error", initialValue: { name: "x" }, error: { name: ["Too short"] } }} />);
    expect(refused).toContain('value="x"');
    expect(refused).toContain('aria-invalid="true"');
    expect(refused).toContain('aria-describedby="probe-name-error"');
    expect(refused).toContain("Too short");

    expect(renderToStaticMarkup(<NameForm />)).toBe(fresh);
  });

  it("hands out one field per name, which follows the form's state when read later", () => {
    renderToStaticMarkup(<NameForm />);
    const { form, fields } = seen!;
    const name = fields.name;
    expect(fields.name).toBe(name);
    expect(name.id).toBe("probe-name");
    expect(name.initialValue).toBe("first");
    expect(name.value).toBe("first");
    expect(name.errors).toBeUndefined();
    expect(form.errors).toBeUndefined();

    // A server has no document; the form element is only looked up to move focus to the first error.
    vi.stubGlobal("document", { forms: { namedItem: () => null } });
    contextOf(form).onUpdate({ lastResult: { status: "error", initialValue: { name: "second" }, error: { name: ["Too short"], "": ["Try again"] } } });

    expect(name.value).toBe("second");
    expect(name.errors).toEqual(["Too short"]);
    expect(form.errors).toEqual(["Try again"]);
    expect(getInputProps(name, { type: "text" })).toMatchObject({ "aria-invalid": true, "aria-describedby": "probe-name-error" });
    vi.unstubAllGlobals();
  });
});
