import type { FoundFunction } from './python-functions.js';

const DECLARATION = /^[ \t]*(?:export\s+)?(?:default\s+)?(?:declare\s+)?(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)\s*[<(]/gm;
const ASSIGNED = /^[ \t]*(?:export\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=\n]+)?=\s*(?:async\s+)?(?=function\b|\(|[A-Za-z_$][\w$]*\s*=>|<)/gm;

/** Skips a string, template or comment starting at i; returns the index after it, or i when none starts there. */
function skipNonCode(text: string, i: number): number {
  const ch = text[i];
  if (ch === '/' && text[i + 1] === '/') {
    const end = text.indexOf('\n', i);
    return end === -1 ? text.length : end;
  }
  if (ch === '/' && text[i + 1] === '*') {
    const end = text.indexOf('*/', i + 2);
    return end === -1 ? text.length : end + 2;
  }
  if (ch === '"' || ch === "'" || ch === '`') {
    let j = i + 1;
    while (j < text.length && text[j] !== ch) {
      if (text[j] === '\\') j += 1;
      else if (ch === '`' && text[j] === '$' && text[j + 1] === '{') j = matchClose(text, j + 1);
      else if (ch !== '`' && text[j] === '\n') return j;
      j += 1;
    }
    return j + 1;
  }
  return i;
}

/** Index of the bracket closing the one at `open` ((, [ or {), past strings and comments; the end of text when unbalanced. */
function matchClose(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i += 1) {
    const skipped = skipNonCode(text, i);
    if (skipped !== i) {
      i = skipped - 1;
      continue;
    }
    const ch = text[i];
    if (ch === '(' || ch === '[' || ch === '{') depth += 1;
    else if (ch === ')' || ch === ']' || ch === '}') {
      depth -= 1;
      if (depth === 0) return i;
    }
  }
  return text.length - 1;
}

/** First index at or after i that is code (not space, string or comment) and matches `want`; -1 when another character comes first. */
function nextCode(text: string, i: number): number {
  while (i < text.length) {
    const skipped = skipNonCode(text, i);
    if (skipped !== i && text[i] !== '"' && text[i] !== "'" && text[i] !== '`') {
      i = skipped;
      continue;
    }
    if (!/\s/.test(text[i])) return i;
    i += 1;
  }
  return -1;
}

/** Index after an arrow's body starting at `at` (just past `=>`): a `{ }` block, or an expression up to `;` or a line break at depth 0. */
function arrowBodyEnd(text: string, at: number): number {
  const body = nextCode(text, at);
  if (body === -1) return text.length;
  if (text[body] === '{') return matchClose(text, body) + 1;
  for (let j = body; j < text.length; j += 1) {
    const skipped = skipNonCode(text, j);
    if (skipped !== j) {
      j = skipped - 1;
      continue;
    }
    if ('([{'.includes(text[j])) j = matchClose(text, j);
    else if (text[j] === ';') return j + 1;
    else if (text[j] === '\n') return j;
  }
  return text.length;
}

/**
 * End (exclusive) of the function whose text follows `start`: the parameter
 * list, an optional return type, then the `{ }` body (declarations) or `=>`
 * and its body (arrows). In a return type, a `{` right after `:`, `<`, `|`,
 * `&`, `,` or `(` is an object type, not the body.
 */
function functionEnd(text: string, start: number, arrow: boolean): number {
  const single = arrow ? /^\s*(?:async\s+)?[A-Za-z_$][\w$]*\s*=>/.exec(text.slice(start)) : null;
  if (single) return arrowBodyEnd(text, start + single[0].length);
  const paren = text.indexOf('(', start);
  if (paren === -1) return text.length;
  let i = matchClose(text, paren) + 1;
  let prev = ')';
  for (;;) {
    const at = nextCode(text, i);
    if (at === -1) return text.length;
    const ch = text[at];
    if (arrow && text.startsWith('=>', at)) return arrowBodyEnd(text, at + 2);
    if (ch === '{') {
      const close = matchClose(text, at);
      if (!arrow && !':<|&,('.includes(prev)) return close + 1;
      i = close + 1;
      prev = '}';
      continue;
    }
    if (ch === ';') return at + 1;
    if (ch === '(' || ch === '[') {
      i = matchClose(text, at) + 1;
      prev = ')';
      continue;
    }
    prev = ch;
    i = at + 1;
  }
}

/** After `=`: `function`, `x =>`, or a parameter list followed by an optional return type and `=>` (not `(1 + 2) * 3`). */
function isFunctionValue(text: string, at: number): boolean {
  if (/^(?:function\b|[A-Za-z_$][\w$]*\s*=>)/.test(text.slice(at))) return true;
  const paren = text.indexOf('(', at);
  if (paren === -1) return false;
  return /^\s*(?::[^;\n]*?)?=>/.test(text.slice(matchClose(text, paren) + 1));
}

/** JSDoc (first paragraph, before any @tag) or `//` lines right above `lineStart`. */
function descriptionAbove(text: string, lineStart: number): string {
  const before = text.slice(0, lineStart).replace(/[ \t]*\n?$/, '');
  const jsdoc = /\/\*\*([\s\S]*?)\*\/\s*$/.exec(before);
  if (jsdoc) {
    const body = jsdoc[1]
      .split('\n')
      .map((l) => l.replace(/^\s*\*?\s?/, '').trimEnd())
      .join('\n');
    return body.split(/\n\s*@/)[0].trim().split(/\n\s*\n/)[0].replace(/\s*\n\s*/g, ' ');
  }
  const lines = before.split('\n');
  const out: string[] = [];
  for (let i = lines.length - 1; i >= 0 && lines[i].trim().startsWith('//'); i -= 1) out.unshift(lines[i].trim().replace(/^\/\/+\s?/, ''));
  return out.join(' ').trim();
}

/** Function declarations and functions assigned to const/let/var (arrow or `function`), with their JSDoc or `//` description. */
export function findTypeScriptFunctions(source: string): FoundFunction[] {
  const text = source.replace(/\r\n/g, '\n');
  const found: FoundFunction[] = [];
  for (const pattern of [DECLARATION, ASSIGNED]) {
    pattern.lastIndex = 0;
    for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
      const start = m.index + (m[0].length - m[0].trimStart().length);
      if (pattern === ASSIGNED && !isFunctionValue(text, m.index + m[0].length)) continue;
      const arrow = pattern === ASSIGNED && !/^function\b/.test(text.slice(m.index + m[0].length));
      const end = functionEnd(text, m.index + m[0].length - 1, arrow);
      found.push({
        name: m[1],
        description: descriptionAbove(text, m.index),
        code: text.slice(start, end).trimEnd(),
        line: text.slice(0, start).split('\n').length,
      });
    }
  }
  return found.sort((a, b) => a.line - b.line);
}
