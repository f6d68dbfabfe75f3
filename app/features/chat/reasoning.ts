/**
 * Splits an assistant message into its reasoning and its answer. The reasoning is a `<think>…</think>`
 * block inside the content, or text sent apart (`reasoning`); while a block is still open the whole
 * rest counts as thinking (SPEC §4).
 */
export interface SplitMessage {
  reasoning: string;
  answer: string;
  /** The reasoning block is not closed yet: the model is still thinking. */
  thinking: boolean;
}

const OPEN = "<think>";
const CLOSE = "</think>";

export function splitReasoning(content: string, apart = ""): SplitMessage {
  const open = content.indexOf(OPEN);
  const close = content.indexOf(CLOSE);
  let reasoning = "";
  let answer = content;
  let thinking = false;
  if (open !== -1 && (close === -1 || close < open)) {
    reasoning = content.slice(open + OPEN.length);
    answer = content.slice(0, open);
    thinking = true;
  } else if (open !== -1) {
    reasoning = content.slice(open + OPEN.length, close);
    answer = content.slice(0, open) + content.slice(close + CLOSE.length);
  } else if (close !== -1) {
    // Some servers (DeepSeek-R1 behind vLLM) leave out the opening tag.
    reasoning = content.slice(0, close);
    answer = content.slice(close + CLOSE.length);
  }
  const allReasoning = [apart.trim(), reasoning.trim()].filter(Boolean).join("\n\n");
  // Reasoning sent apart with no answer yet is thinking too.
  if (apart && !thinking && !answer.trim() && !reasoning) thinking = true;
  return { reasoning: allReasoning, answer: answer.replace(/^\s+/, ""), thinking };
}
