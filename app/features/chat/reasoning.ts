/**
 * Splits an assistant message into its reasoning and its answer (SPEC §4). The reasoning is either
 * text sent apart (`reasoning_content` / `reasoning`), or a `<think>…</think>` block that the content
 * starts with; while that block is still open the whole rest counts as thinking.
 *
 * Only a block at the very start is reasoning: an answer that mentions the tags, or shows them in a
 * code sample, keeps them as written (decision 0129). Some servers (DeepSeek-R1 behind vLLM) leave out
 * the opening tag, so a lone `</think>` still ends the reasoning, but only in content with no opening
 * tag at all and outside code. When the reasoning came apart, the content is all answer: no tags are read.
 * `streaming`: the reply is still arriving, so content that may yet become an opening tag ("<thi") is held back.
 */
export interface SplitMessage {
  reasoning: string;
  answer: string;
  /** The reasoning block is not closed yet: the model is still thinking. */
  thinking: boolean;
}

const OPEN = "<think>";
const CLOSE = "</think>";

export function splitReasoning(content: string, apart = "", streaming = false): SplitMessage {
  if (apart) {
    const answer = content.replace(/^\s+/, "");
    // Reasoning sent apart with no answer yet is thinking too.
    return { reasoning: apart.trim(), answer, thinking: !answer.trim() };
  }
  const start = content.length - content.trimStart().length;
  const head = content.slice(start);
  if (head.startsWith(OPEN)) {
    const close = content.indexOf(CLOSE, start + OPEN.length);
    if (close === -1) return { reasoning: content.slice(start + OPEN.length).trim(), answer: "", thinking: true };
    return {
      reasoning: content.slice(start + OPEN.length, close).trim(),
      answer: content.slice(close + CLOSE.length).replace(/^\s+/, ""),
      thinking: false,
    };
  }
  // The opening tag still arriving ("<thi"): nothing to show yet rather than a flash of tag. A finished
  // reply that is just "<" said "<": hiding it showed an empty bubble and left it out of the history.
  if (streaming && head && OPEN.startsWith(head)) return { reasoning: "", answer: "", thinking: false };
  if (!content.includes(OPEN)) {
    const close = firstOutsideCode(content, CLOSE);
    if (close !== -1) {
      return { reasoning: content.slice(0, close).trim(), answer: content.slice(close + CLOSE.length).replace(/^\s+/, ""), thinking: false };
    }
  }
  return { reasoning: "", answer: content.replace(/^\s+/, ""), thinking: false };
}

/** Where `needle` first occurs in `text` outside a fenced code block and an inline code span; -1 if nowhere. */
export function firstOutsideCode(text: string, needle: string): number {
  const code = codeRanges(text);
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) {
    if (!code.some(([from, to]) => at >= from && at < to)) return at;
  }
  return -1;
}

/** The [from, to) ranges of markdown code: fenced blocks (an unclosed one runs to the end) and inline spans. */
function codeRanges(text: string): [number, number][] {
  const ranges: [number, number][] = [];
  let fence: { char: string; length: number; from: number } | null = null;
  let offset = 0;
  let proseFrom = 0;
  const prose = (to: number) => {
    const part = text.slice(proseFrom, to);
    for (const m of part.matchAll(/(`+)(?!`)([\s\S]*?[^`])\1(?!`)/g)) ranges.push([proseFrom + m.index, proseFrom + m.index + m[0].length]);
  };
  for (const line of text.split("\n")) {
    const end = offset + line.length + 1;
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (!fence && marker) {
      prose(offset);
      fence = { char: marker[1][0], length: marker[1].length, from: offset };
    } else if (fence && marker && marker[1][0] === fence.char && marker[1].length >= fence.length && line.trim() === marker[1]) {
      ranges.push([fence.from, end]);
      fence = null;
      proseFrom = end;
    }
    offset = end;
  }
  if (fence) ranges.push([fence.from, text.length]);
  else prose(text.length);
  return ranges;
}
