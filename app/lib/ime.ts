/**
 * A key that confirms or cancels an IME composition (Japanese, Chinese, Korean input) rather than
 * acting on the page. Safari sends that Enter with `isComposing` false but keyCode 229.
 */
export function composing(e: Pick<KeyboardEvent, "isComposing" | "keyCode">): boolean {
  return e.isComposing || e.keyCode === 229;
}
