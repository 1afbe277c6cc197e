/** A function found in source text; the route adds file and id. */
export interface FoundFunction {
  name: string;
  description: string;
  code: string;
  /** 1-based line of the `def` / `function` keyword's line (decorators are in `code`). */
  line: number;
}

const DEF = /^(\s*)(?:async\s+)?def\s+([A-Za-z_]\w*)\s*\(/;
const indentOf = (line: string) => line.length - line.trimStart().length;
const isBlank = (line: string) => line.trim() === '';

/** Where the `:` ending a (possibly multi-line) signature is, and whether code follows it on that line (`def f(): return 1`). */
function signatureEnd(lines: string[], start: number): { line: number; inline: boolean } {
  let depth = 0;
  let opened = false;
  for (let i = start; i < lines.length; i += 1) {
    const code = lines[i].replace(/#.*$/, '');
    for (let c = 0; c < code.length; c += 1) {
      const ch = code[c];
      if ('([{'.includes(ch)) {
        depth += 1;
        opened = true;
      } else if (')]}'.includes(ch)) depth -= 1;
      else if (ch === ':' && depth === 0 && opened) return { line: i, inline: code.slice(c + 1).trim() !== '' };
    }
  }
  return { line: lines.length - 1, inline: false };
}

/** The first paragraph of a docstring right after the signature, if any. */
function docstring(lines: string[], from: number): string | null {
  let i = from;
  while (i < lines.length && isBlank(lines[i])) i += 1;
  if (i >= lines.length) return null;
  const first = lines[i].trim();
  const open = /^[rRuU]?("""|''')/.exec(first);
  if (!open) {
    const single = /^[rRuU]?(["'])(.*)\1\s*$/.exec(first);
    return single ? single[2].trim() : null;
  }
  const quote = open[1];
  const collected: string[] = [];
  let rest = first.slice(open[0].length);
  for (;;) {
    const close = rest.indexOf(quote);
    if (close !== -1) {
      collected.push(rest.slice(0, close));
      break;
    }
    collected.push(rest);
    i += 1;
    if (i >= lines.length) break;
    rest = lines[i];
  }
  const text = collected.map((l) => l.trim()).join('\n').trim();
  return text.split(/\n\s*\n/)[0].replace(/\s*\n\s*/g, ' ');
}

/** `#` comment lines right above the definition (or its decorators). */
function commentAbove(lines: string[], start: number): string {
  const out: string[] = [];
  for (let i = start - 1; i >= 0 && lines[i].trim().startsWith('#'); i -= 1) out.unshift(lines[i].trim().replace(/^#+\s?/, ''));
  return out.join(' ').trim();
}

/** Every `def` (top level, nested and methods) with its decorators, body and description (docstring, else the comment above). */
export function findPythonFunctions(source: string): FoundFunction[] {
  const lines = source.replace(/\r\n/g, '\n').split('\n');
  const found: FoundFunction[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    const match = DEF.exec(lines[i]);
    if (!match) continue;
    const indent = match[1].length;
    let first = i;
    while (first > 0 && lines[first - 1].trim().startsWith('@') && indentOf(lines[first - 1]) === indent) first -= 1;
    const { line: sigEnd, inline } = signatureEnd(lines, i);
    let last = sigEnd;
    if (!inline) {
      for (let j = sigEnd + 1; j < lines.length; j += 1) {
        if (isBlank(lines[j])) continue;
        if (indentOf(lines[j]) <= indent) break;
        last = j;
      }
    }
    found.push({
      name: match[2],
      description: (inline ? null : docstring(lines, sigEnd + 1)) ?? commentAbove(lines, first),
      code: lines.slice(first, last + 1).join('\n'),
      line: i + 1,
    });
  }
  return found;
}
