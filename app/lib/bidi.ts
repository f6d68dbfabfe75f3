/**
 * A user-given name (a person's, an organization's) inside a sentence that is a plain string (a toast, a
 * confirmation's question): between U+2068 FIRST STRONG ISOLATE and U+2069 POP DIRECTIONAL ISOLATE, so a
 * right-to-left name keeps the words and numbers around it in their places ("Organization 59 is now called
 * שירותי ענן." read with the period and the number moved). Where the sentence is JSX, `<bdi>` does the same
 * without characters in the text.
 */
export function isolate(name: string): string {
  return `\u2068${name}\u2069`;
}
