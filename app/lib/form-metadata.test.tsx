import type { FormMetadata, SubmissionResult } from "@conform-to/react";
import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm } from "@conform-to/react";
import { parseForm } from "~/lib/parse-form";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";

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

// The eleventh pass patched conform again: its props are spread natively, and a server render keeps no
// subscription list. A form rendered on the server must still carry what the browser and assistive
// technology read: ids, names, constraints, values typed, errors and their links.
const schema = z.object({
  name: z.string({ required_error: "Enter a name" }).max(20),
  uses: z.number().int().min(1).max(1000),
  expiry: z.enum(["never", "7"]),
  note: z.string().max(200).optional(),
});

function TestForm({ lastResult }: { lastResult?: SubmissionResult<string[]> }) {
  const [form, fields] = useForm<z.input<typeof schema>>({
    id: "t",
    lastResult,
    defaultValue: { expiry: "7", name: "Ada" },
    constraint: { name: { required: true, maxLength: 20 } },
  });
  return (
    <form {...getFormProps(form)}>
      <input {...getInputProps(fields.name, { type: "text" })} key={undefined} />
      <input {...getInputProps(fields.uses, { type: "number" })} key={undefined} />
      <select {...getSelectProps(fields.expiry)} key={undefined}>
        <option value="never">Never</option>
        <option value="7">7 days</option>
      </select>
      <textarea {...getTextareaProps(fields.note)} key={undefined} />
    </form>
  );
}

const submitted = (entries: Record<string, string>) => {
  const data = new FormData();
  for (const [k, v] of Object.entries(entries)) data.append(k, v);
  return parseForm(data, { schema }).reply();
};

describe("a conform form rendered on the server", () => {
  it("carries ids, names, constraints and default values", () => {
    const html = renderToStaticMarkup(<TestForm />);
    expect(html).toContain('<form id="t" novalidate="">');
    expect(html).toContain('<input required="" id="t-name" name="name" form="t" type="text" maxLength="20" value="Ada"/>');
    expect(html).toContain('<input id="t-uses" name="uses" form="t" type="number"/>');
    expect(html).toContain(
      '<select id="t-expiry" name="expiry" form="t"><option value="never">Never</option><option value="7" selected="">7 days</option></select>',
    );
    expect(html).toContain('<textarea id="t-note" name="note" form="t"></textarea>');
  });

  it("after a refused submission, keeps what was typed and links each error to its field", () => {
    const html = renderToStaticMarkup(<TestForm lastResult={submitted({ name: "", uses: "0", expiry: "never", note: "hello" })} />);
    expect(html).toContain(
      '<input required="" id="t-name" name="name" form="t" aria-invalid="true" aria-describedby="t-name-error" type="text" maxLength="20"/>',
    );
    expect(html).toContain('<input id="t-uses" name="uses" form="t" aria-invalid="true" aria-describedby="t-uses-error" type="number" value="0"/>');
    expect(html).toContain('<option value="never" selected="">Never</option>');
    expect(html).toContain('<textarea id="t-note" name="note" form="t">hello</textarea>');
  });
});
