import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm } from "@conform-to/react";
import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { z } from "zod";

// Conform is patched (patches/, decision 0087's eleventh pass): its props are spread natively, and a
// server render keeps no subscription list. A form rendered on the server must still carry what the
// browser and assistive technology read: ids, names, constraints, values typed, errors and their links.
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
  return parseWithZod(data, { schema }).reply();
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
