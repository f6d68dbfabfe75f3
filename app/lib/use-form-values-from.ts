import type { RefObject } from "react";
import { useEffect, useRef } from "react";

/**
 * For a GET filter form whose controls are uncontrolled (`defaultValue`): each time the page's data is
 * new (`loaded` is another object: Apply, a link such as Clear, Back), its controls show what that data
 * says again. They stay mounted through it, so the one in use keeps the keyboard focus (DESIGN §6), which
 * keying the form by its values did not; and uncontrolled, what was typed before hydration is kept
 * (React 18 puts a controlled input back to its state on the next render). Put the ref on the form.
 */
export function useFormValuesFrom<Loaded>(loaded: Loaded, valuesOf: (loaded: Loaded) => Record<string, string>): RefObject<HTMLFormElement> {
  const form = useRef<HTMLFormElement>(null);
  const shown = useRef(loaded);
  useEffect(() => {
    if (shown.current === loaded) return;
    shown.current = loaded;
    for (const [name, value] of Object.entries(valuesOf(loaded))) {
      const control = form.current?.elements.namedItem(name);
      if (control instanceof HTMLInputElement || control instanceof HTMLSelectElement) control.value = value;
    }
  }, [loaded, valuesOf]);
  return form;
}
