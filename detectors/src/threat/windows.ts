// Long prompts are scored in overlapping windows and the prompt takes the highest window score, so an
// injection buried in a long pasted document is not diluted by the document around it.

/**
 * Start offsets of the windows of a text of `length` characters: every `stride` characters, the last
 * window ending at the text's end. A text no longer than one window is one window.
 */
export function threatWindowStarts(length: number, windowChars: number, stride: number): number[] {
  if (windowChars <= 0 || stride <= 0 || stride > windowChars) throw new RangeError('need 0 < stride <= windowChars');
  if (length <= windowChars) return [0];
  const starts: number[] = [];
  for (let start = 0; start + windowChars < length; start += stride) starts.push(start);
  starts.push(length - windowChars);
  return starts;
}

/** The windows of `text` as strings (see threatWindowStarts). */
export function threatWindows(text: string, windowChars: number, stride: number): string[] {
  return threatWindowStarts(text.length, windowChars, stride).map((start) => text.slice(start, start + windowChars));
}
