import type { JsonValue } from '@tessera/contracts';

/**
 * A dict as printed, its keys in their printed order: a JavaScript object would move keys
 * such as 1, 2, 3 (a schedule's days) before 'Doctor ID'.
 */
export class LiteralDict {
  constructor(readonly entries: ReadonlyArray<readonly [string, LiteralValue]>) {}

  get(key: string): LiteralValue | undefined {
    return this.entries.find(([k]) => k === key)?.[1];
  }
}
export type LiteralValue = string | number | boolean | null | LiteralValue[] | LiteralDict;

/** The JSON value of a literal (a dict's key order is then JavaScript's). */
export function literalToJson(value: LiteralValue): JsonValue {
  if (Array.isArray(value)) return value.map(literalToJson);
  if (value instanceof LiteralDict) return Object.fromEntries(value.entries.map(([k, v]) => [k, literalToJson(v)]));
  return value;
}

/**
 * Reads one JSON or Python literal (what print() shows of a list, tuple or dict of plain
 * values: 'text' and "text" with their escapes, numbers, True/False/None, true/false/null,
 * inf and nan) starting at `start`, and says where it ends. Anything else — a call such as
 * datetime.date(…) or array(…), a set, an expression — is no literal: `failedAt` says where
 * reading stopped. Nothing is
 * evaluated, so printed text cannot run.
 */
export function readLiteral(text: string, start: number): { value: LiteralValue; end: number } | { failedAt: number } {
  const reader = new LiteralReader(text, start);
  try {
    const value = reader.value(0);
    return { value, end: reader.pos };
  } catch (err) {
    // How far it read: the caller need not retry inside text already known not to close.
    if (err === NOT_A_LITERAL) return { failedAt: reader.pos };
    throw err;
  }
}

/** Thrown inside the reader; not an Error, so no stack is captured for each line tried. */
const NOT_A_LITERAL = Symbol('not a literal');

/** Deeper nesting is no table, and would risk the stack. */
const MAX_DEPTH = 64;

const ESCAPES: Record<string, string> = { n: '\n', r: '\r', t: '\t', b: '\b', f: '\f', '0': '\0', '\\': '\\', "'": "'", '"': '"', '/': '/', '\n': '' };

/** A key as a header: 1 → "1", True → "True" (as Python's str() shows it), None → "None". */
function keyText(key: string | number | boolean | null): string {
  if (key === null) return 'None';
  if (typeof key === 'boolean') return key ? 'True' : 'False';
  return String(key);
}

const SCALAR = /(?:-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|True|False|None|true|false|null|-?inf|nan)(?![\w.])/y;

class LiteralReader {
  constructor(
    private readonly text: string,
    public pos: number,
  ) {}

  value(depth: number): LiteralValue {
    if (depth > MAX_DEPTH) throw NOT_A_LITERAL;
    this.space();
    const ch = this.text[this.pos];
    if (ch === '[') return this.sequence(']', depth);
    if (ch === '(') return this.sequence(')', depth);
    if (ch === '{') return this.dict(depth);
    if (ch === "'" || ch === '"') return this.string();
    return this.scalar();
  }

  private space(): void {
    while (this.pos < this.text.length && /\s/.test(this.text[this.pos])) this.pos++;
  }

  private expect(ch: string): void {
    this.space();
    if (this.text[this.pos] !== ch) throw NOT_A_LITERAL;
    this.pos++;
  }

  /** [a, b, c] or (a, b, c): a trailing comma is allowed, (x,) included. */
  private sequence(close: string, depth: number): LiteralValue[] {
    this.pos++;
    const items: LiteralValue[] = [];
    for (;;) {
      this.space();
      if (this.text[this.pos] === close) {
        this.pos++;
        return items;
      }
      items.push(this.value(depth + 1));
      this.space();
      if (this.text[this.pos] === ',') this.pos++;
      else if (this.text[this.pos] !== close) throw NOT_A_LITERAL;
    }
  }

  /** {key: value, …}; keys become text (a number key 1 is the header "1"). */
  private dict(depth: number): LiteralDict {
    this.pos++;
    const entries = new Map<string, LiteralValue>(); // a repeated key keeps its first place, the last value (as in Python)
    for (;;) {
      this.space();
      if (this.text[this.pos] === '}') {
        this.pos++;
        return new LiteralDict([...entries]);
      }
      const key = this.value(depth + 1);
      if (key !== null && typeof key === 'object') throw NOT_A_LITERAL;
      this.expect(':');
      entries.set(keyText(key), this.value(depth + 1));
      this.space();
      if (this.text[this.pos] === ',') this.pos++;
      else if (this.text[this.pos] !== '}') throw NOT_A_LITERAL;
    }
  }

  private string(): string {
    const quote = this.text[this.pos++];
    let out = '';
    for (;;) {
      if (this.pos >= this.text.length) throw NOT_A_LITERAL;
      const ch = this.text[this.pos++];
      if (ch === quote) return out;
      if (ch === '\n') throw NOT_A_LITERAL;
      if (ch !== '\\') {
        out += ch;
        continue;
      }
      const esc = this.text[this.pos++];
      if (esc === undefined) throw NOT_A_LITERAL;
      if (esc in ESCAPES) out += ESCAPES[esc];
      else if (esc === 'x') out += this.codePoint(2);
      else if (esc === 'u') out += this.codePoint(4);
      else if (esc === 'U') out += this.codePoint(8);
      else out += `\\${esc}`; // Python keeps an unknown escape as written
    }
  }

  private codePoint(digits: number): string {
    const hex = this.text.slice(this.pos, this.pos + digits);
    if (!new RegExp(`^[0-9a-fA-F]{${digits}}$`).test(hex)) throw NOT_A_LITERAL;
    this.pos += digits;
    const code = Number.parseInt(hex, 16);
    if (code > 0x10ffff) throw NOT_A_LITERAL;
    return String.fromCodePoint(code);
  }

  /** Numbers, True/False/None, their JSON spellings, inf and nan (which have no JSON value: blank). */
  private scalar(): string | number | boolean | null {
    SCALAR.lastIndex = this.pos;
    const match = SCALAR.exec(this.text);
    if (!match) throw NOT_A_LITERAL;
    this.pos += match[0].length;
    const word = match[0];
    if (word === 'True' || word === 'true') return true;
    if (word === 'False' || word === 'false') return false;
    if (word === 'None' || word === 'null' || word.endsWith('inf') || word === 'nan') return null;
    return Number(word);
  }
}
