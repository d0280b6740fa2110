// A target's answer is forwarded to the caller as JSON; nesting past this depth is refused as a target
// error (and refunded) rather than parsed, because serializing it back would exhaust the stack.

/** Deepest nesting of arrays and objects the router forwards in an answer. */
export const MAX_ANSWER_DEPTH = 64;

/** Whether the JSON `text` nests arrays or objects deeper than `max` (brackets inside strings do not count). */
export function answerDepthExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}
