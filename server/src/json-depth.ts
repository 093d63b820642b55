// How deeply a JSON text nests, measured before it is parsed, as sim-core measures what it reads
// (sim-core/json/json_depth.h, JsonDepth): brackets counted outside strings, stopping once past
// `stopAbove`. Malformed text is measured as far as it goes; the parser that follows reports it.
export function jsonDepth(text: string, stopAbove: number): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; ++i) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) ++i; // A backslash: the escaped character cannot end the string.
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > deepest) {
        deepest = depth;
        if (deepest > stopAbove) return deepest;
      }
    } else if ((c === 0x5d || c === 0x7d) && depth > 0) {
      --depth;
    }
  }
  return deepest;
}
