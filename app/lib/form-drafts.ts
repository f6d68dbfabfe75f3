import { useLocation } from "@remix-run/react";
import { useEffect, useState } from "react";

/**
 * What was typed into a page's forms, kept across a sign-in: a form posted after the session ended
 * (signed out in another tab, expired) went to /login and, once signed in again, came back empty. The
 * browser keeps it (sessionStorage: this tab only), only what differs from the form's defaults, never a
 * password, a file or a hidden field, and for one return to the page, by the same user, soon after.
 */
const KEY = "console:form-drafts";
const MAX_AGE_MS = 30 * 60_000;
/** A post that lands on /login this soon after it was sent was refused for want of a session. */
const REFUSED_WITHIN_MS = 15_000;
const SKIPPED_TYPES = new Set(["hidden", "password", "file", "submit", "button", "reset", "image"]);

type Field = { name: string; value: string; checked?: boolean };
interface FormDraft {
  action: string | null;
  /** Which of the page's forms with this action. */
  index: number;
  fields: Field[];
}
interface Drafts {
  path: string;
  userId: number | null;
  at: number;
  /** Set once the tab reached /login with them: only then are they restored. */
  forSignIn: boolean;
  forms: FormDraft[];
}

type Control = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

function controls(form: HTMLFormElement): Control[] {
  return [...form.elements].filter(
    (el): el is Control =>
      (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement) &&
      el.name !== "" &&
      !el.disabled &&
      !SKIPPED_TYPES.has(el.type),
  );
}

/** The fields of a form that differ from what the page rendered: what the user typed or chose. */
function typedFields(form: HTMLFormElement): Field[] {
  const fields: Field[] = [];
  for (const el of controls(form)) {
    if (el instanceof HTMLInputElement && (el.type === "checkbox" || el.type === "radio")) {
      if (el.checked !== el.defaultChecked) fields.push({ name: el.name, value: el.value, checked: el.checked });
    } else if (el instanceof HTMLSelectElement) {
      if ([...el.options].some((o) => o.selected !== o.defaultSelected)) fields.push({ name: el.name, value: el.value });
    } else if (el.value !== el.defaultValue) {
      fields.push({ name: el.name, value: el.value });
    }
  }
  return fields;
}

function formsLike(action: string | null): HTMLFormElement[] {
  return [...document.forms].filter((f) => f.getAttribute("action") === action && f.dataset.noDraft === undefined);
}

function read(): Drafts | null {
  try {
    const raw = sessionStorage.getItem(KEY);
    return raw ? (JSON.parse(raw) as Drafts) : null;
  } catch {
    return null;
  }
}

function write(drafts: Drafts | null) {
  try {
    if (drafts) sessionStorage.setItem(KEY, JSON.stringify(drafts));
    else sessionStorage.removeItem(KEY);
  } catch {
    // Storage refused (private mode, full): nothing is kept.
  }
}

/** Keeps what was typed into these forms of the current page; nothing when nothing was typed. */
export function keepDrafts(forms: HTMLFormElement[], userId: number | null, forSignIn = false) {
  const kept: FormDraft[] = [];
  for (const form of forms) {
    if (form.method.toLowerCase() !== "post" || form.dataset.noDraft !== undefined) continue;
    const fields = typedFields(form);
    const action = form.getAttribute("action");
    if (fields.length > 0) kept.push({ action, index: formsLike(action).indexOf(form), fields });
  }
  if (kept.length === 0) return;
  write({ path: window.location.pathname, userId, at: Date.now(), forSignIn, forms: kept });
}

/** Keeps every form of the page: the session is found ended and the tab is about to go to /login. */
export function keepAllDrafts(userId: number | null) {
  keepDrafts([...document.forms], userId, true);
}

function setValue(el: Control, field: Field) {
  if (el instanceof HTMLInputElement && (el.type === "checkbox" || el.type === "radio")) {
    // A click changes it as a person would, so React's state and the form's validation follow.
    if (el.value === field.value && el.checked !== field.checked) el.click();
    return;
  }
  // The prototype's setter: React tracks the value it last set, and would ignore a plain assignment.
  const prototype =
    el instanceof HTMLSelectElement
      ? HTMLSelectElement.prototype
      : el instanceof HTMLTextAreaElement
        ? HTMLTextAreaElement.prototype
        : HTMLInputElement.prototype;
  Object.getOwnPropertyDescriptor(prototype, "value")?.set?.call(el, field.value);
  el.dispatchEvent(new Event(el instanceof HTMLSelectElement ? "change" : "input", { bubbles: true }));
}

function restore(drafts: Drafts): boolean {
  let restored = false;
  for (const draft of drafts.forms) {
    const form = formsLike(draft.action)[draft.index];
    if (!form) continue;
    for (const field of draft.fields) {
      const candidates = controls(form).filter((el) => el.name === field.name);
      const el = field.checked === undefined ? candidates[0] : candidates.find((c) => c.value === field.value);
      if (!el) continue;
      setValue(el, field);
      restored = true;
    }
  }
  return restored;
}

/**
 * The root's side: keeps a form's typed values as it is posted, and fills them back in on the first
 * page after signing in again. Returns whether it did (the page says so).
 */
export function useFormDrafts(userId: number | null): boolean {
  const location = useLocation();
  const [restored, setRestored] = useState(false);

  useEffect(() => {
    const onSubmit = (event: SubmitEvent) => {
      if (event.target instanceof HTMLFormElement) keepDrafts([event.target], userId);
    };
    document.addEventListener("submit", onSubmit, true);
    return () => document.removeEventListener("submit", onSubmit, true);
  }, [userId]);

  useEffect(() => {
    // Said once: the next page's own messages are not hidden behind it.
    setRestored(false);
    const drafts = read();
    if (!drafts) return;
    const now = Date.now();
    if (location.pathname === "/login") {
      if (drafts.forSignIn || now - drafts.at > REFUSED_WITHIN_MS) {
        if (!drafts.forSignIn) write(null);
        return;
      }
      write({ ...drafts, forSignIn: true });
      return;
    }
    // Any other page ends them: restored here, or the post went through.
    write(null);
    if (!drafts.forSignIn || now - drafts.at > MAX_AGE_MS || drafts.path !== location.pathname) return;
    if (drafts.userId !== null && userId !== null && drafts.userId !== userId) return;
    if (restore(drafts)) setRestored(true);
    // Each navigation is its own: `key` changes even when a redirect comes back to the same address.
  }, [location.key, location.pathname, userId]);

  return restored;
}

/** Whether this tab holds typed values for after sign-in (the sign-in page says so). */
export function useDraftsKeptForSignIn(): boolean {
  const [kept, setKept] = useState(false);
  useEffect(() => {
    const drafts = read();
    setKept(Boolean(drafts && (drafts.forSignIn || Date.now() - drafts.at <= REFUSED_WITHIN_MS)));
  }, []);
  return kept;
}
