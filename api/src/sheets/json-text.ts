/**
 * The index of the closing quote of the JSON string whose opening quote is at `open` (a
 * backslash escapes the next character), for scans of stored chunk text that skip strings
 * without parsing them; text.length when the string is not closed.
 */
export function closingQuote(text: string, open: number): number {
  let i = open + 1;
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 92) i++;
    else if (c === 34) break;
  }
  return i;
}
