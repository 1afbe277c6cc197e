import { AGGREGATES, type Aggregate, type FilterOperator, type ParseOutcome, type SheetRequest } from './sheet-request.js';

/**
 * Parses the sheet requests builtin handles without a model (the README lists them with
 * examples). Column names are the sheet's headers, matched whatever their case, quoted or not;
 * a quoted name the sheet lacks is reported, anything else not understood gives null.
 */
export function parseSheetRequest(instruction: string, headers: string[]): ParseOutcome {
  const text = normalise(instruction);
  if (!text) return null;
  // First with the sheet's names only; then with any words where a name goes, to tell the
  // user which name the sheet lacks ("sort by Colour") rather than that nothing was understood.
  for (const loose of [false, true]) {
    const columns = new ColumnMatcher(headers, loose);
    for (const parse of PARSERS) {
      try {
        const request = parse(text, columns);
        if (request) return { request };
      } catch (err) {
        if (err instanceof UnknownColumn) return { unknownColumn: err.column };
        throw err;
      }
    }
  }
  return null;
}

class UnknownColumn extends Error {
  constructor(readonly column: string) {
    super(`unknown column ${column}`);
  }
}

/** Lower-case keywords stay matchable; polite or filler openings and final punctuation go. */
function normalise(instruction: string): string {
  let text = instruction.trim().replace(/\s+/g, ' ').replace(/[.!?]+$/, '').trim();
  const opening = /^(?:please|pls|can you|could you|would you|show me|show|give me|get me|get|compute|calculate|what is|what are|what's|list|find|display|i want|i need)\b[ ,:]*/i;
  let previous: string;
  do {
    previous = text;
    text = text.replace(opening, '').trim();
  } while (text !== previous);
  return text.replace(/\s+please$/i, '').trim();
}

/** The sheet's headers as a regex alternative, longest first so "Unit Price" wins over "Unit". */
class ColumnMatcher {
  readonly pattern: string;
  private readonly byLower = new Map<string, string>();

  constructor(headers: string[], loose = false) {
    for (const header of headers) {
      if (header.trim() && !this.byLower.has(header.trim().toLowerCase())) this.byLower.set(header.trim().toLowerCase(), header);
    }
    const names = [...this.byLower.values()].sort((a, b) => b.trim().length - a.trim().length).map((h) => escapeRegex(h.trim()));
    const quoted = `"[^"]+"|'[^']+'|\`[^\`]+\`|“[^”]+”`;
    // A bare name must end at a word boundary (or the name's own punctuation), not inside a longer word.
    const alternatives = [quoted, ...(names.length ? [`(?:${names.join('|')})(?![\\w])`] : []), ...(loose ? ['[^,"\'`“]+?'] : [])];
    this.pattern = `(?:${alternatives.join('|')})`;
  }

  /** The header a matched name stands for; a quoted name the sheet lacks throws UnknownColumn. */
  resolve(matched: string): string {
    const name = /^["'`“]/.test(matched) ? matched.slice(1, -1).trim() : matched.trim();
    const header = this.byLower.get(name.toLowerCase());
    if (header === undefined) throw new UnknownColumn(name);
    return header;
  }

  /** "A, B and C" → the headers, or null when the text is not such a list. */
  list(text: string): string[] | null {
    const found: string[] = [];
    let rest = text.trim();
    const item = new RegExp(`^(?:the\\s+)?(${this.pattern})\\s*(?:,\\s*(?:and\\s+)?|\\band\\b\\s*|&\\s*|$)`, 'i');
    while (rest) {
      const match = item.exec(rest);
      if (!match?.[1]) return null;
      found.push(this.resolve(match[1]));
      rest = rest.slice(match[0].length).trim();
    }
    return found.length ? found : null;
  }
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

type Parser = (text: string, columns: ColumnMatcher) => SheetRequest | null;

const WHOLE_SHEET = /^(?:(?:of|for)\s+)?(?:the\s+|this\s+|all\s+(?:the\s+)?)?(?:sheet|data|table|columns|everything|all)?$/i;

const describe: Parser = (text, columns) => {
  const match = /^(?:describe|summari[sz]e|(?:a\s+)?summary|statistics|stats|profile)\b\s*(.*)$/i.exec(text);
  if (!match) return null;
  const rest = (match[1] ?? '').trim();
  if (WHOLE_SHEET.test(rest)) return { kind: 'describe', columns: [] };
  const list = columns.list(rest.replace(/^(?:of|for|on)\s+/i, '').replace(/^(?:the\s+)?columns?\s+/i, ''));
  return list ? { kind: 'describe', columns: list } : null;
};

const AGGREGATE_WORDS: Record<string, Aggregate> = {
  total: 'sum',
  totals: 'sum',
  sum: 'sum',
  'sum total': 'sum',
  average: 'mean',
  avg: 'mean',
  mean: 'mean',
  count: 'count',
  'number of': 'count',
  min: 'min',
  minimum: 'min',
  lowest: 'min',
  smallest: 'min',
  max: 'max',
  maximum: 'max',
  highest: 'max',
  largest: 'max',
};
const AGGREGATE_WORD = Object.keys(AGGREGATE_WORDS)
  .sort((a, b) => b.length - a.length)
  .map(escapeRegex)
  .join('|');
const BY = '(?:by|per|for each|for every|grouped by|group(?:ed)? by|across(?: each)?|broken down by|split by)';

const aggregate: Parser = (text, columns) => {
  const col = `(${columns.pattern})`;
  // "total of Amount by Region", "average Price per Category", "count of Orders by Region"
  let match = new RegExp(`^(?:the\\s+)?(${AGGREGATE_WORD})\\s+(?:of\\s+|in\\s+)?(?:the\\s+)?${col}\\s+${BY}\\s+(?:the\\s+)?${col}$`, 'i').exec(text);
  if (match?.[2] && match[3]) {
    return { kind: 'aggregate', fn: fnOf(match[1]!), value: columns.resolve(match[2]), by: columns.resolve(match[3]) };
  }
  // "Amount totals by Region", "Amount total per Region"
  match = new RegExp(`^(?:the\\s+)?${col}\\s+(${AGGREGATE_WORD})\\s+${BY}\\s+(?:the\\s+)?${col}$`, 'i').exec(text);
  if (match?.[1] && match[3]) {
    return { kind: 'aggregate', fn: fnOf(match[2]!), value: columns.resolve(match[1]), by: columns.resolve(match[3]) };
  }
  // "count by Region", "number of rows per Region", "count rows by Region"
  match = new RegExp(`^(?:the\\s+)?(?:count|number)(?:\\s+of)?(?:\\s+(?:rows|records|entries|lines))?\\s+${BY}\\s+(?:the\\s+)?${col}$`, 'i').exec(text);
  if (match?.[1]) return { kind: 'aggregate', fn: 'count', value: null, by: columns.resolve(match[1]) };
  // "total of Amount", "average Price"
  match = new RegExp(`^(?:the\\s+)?(${AGGREGATE_WORD})\\s+(?:of\\s+|in\\s+)?(?:the\\s+)?(?:column\\s+)?${col}(?:\\s+column)?$`, 'i').exec(text);
  if (match?.[2]) return { kind: 'aggregate', fn: fnOf(match[1]!), value: columns.resolve(match[2]), by: null };
  return null;
};

function fnOf(word: string): Aggregate {
  const fn = AGGREGATE_WORDS[word.toLowerCase().replace(/\s+/g, ' ')];
  if (!fn || !(AGGREGATES as readonly string[]).includes(fn)) throw new Error(`no aggregate for ${word}`);
  return fn;
}

const DESCENDING = /^(?:desc|descending|decreasing|reversed?|largest first|highest first|biggest first|newest first|z-a|z to a|high to low|large to small)$/i;
const ASCENDING = /^(?:asc|ascending|increasing|smallest first|lowest first|oldest first|a-z|a to z|low to high|small to large)$/i;
const DIRECTION = '(?:desc|descending|decreasing|reversed?|largest first|highest first|biggest first|newest first|z-a|z to a|high to low|large to small|asc|ascending|increasing|smallest first|lowest first|oldest first|a-z|a to z|low to high|small to large)';

const sort: Parser = (text, columns) => {
  const col = `(${columns.pattern})`;
  const match = new RegExp(
    `^(?:sort|order|rank)\\s+(?:the\\s+)?(?:rows\\s+|sheet\\s+|data\\s+|table\\s+)?(?:(${DIRECTION})\\s+)?by\\s+(?:the\\s+)?${col}(?:\\s+(?:column\\s+)?(?:in\\s+)?(${DIRECTION})(?:\\s+order)?|\\s*,\\s*(${DIRECTION}))?$`,
    'i',
  ).exec(text);
  if (!match?.[2]) return null;
  const direction = (match[1] ?? match[3] ?? match[4] ?? 'ascending').toLowerCase();
  if (!DESCENDING.test(direction) && !ASCENDING.test(direction)) return null;
  return { kind: 'sort', by: columns.resolve(match[2]), descending: DESCENDING.test(direction) };
};

/** Operator words, longest first, to the comparison each means. */
const OPERATORS: Array<[string, FilterOperator]> = [
  ['is greater than or equal to', 'ge'],
  ['greater than or equal to', 'ge'],
  ['is less than or equal to', 'le'],
  ['less than or equal to', 'le'],
  ['does not contain', 'not_contains'],
  ["doesn't contain", 'not_contains'],
  ['is not equal to', 'ne'],
  ['not equal to', 'ne'],
  ['is greater than', 'gt'],
  ['is more than', 'gt'],
  ['greater than', 'gt'],
  ['more than', 'gt'],
  ['is less than', 'lt'],
  ['less than', 'lt'],
  ['fewer than', 'lt'],
  ['is at least', 'ge'],
  ['at least', 'ge'],
  ['is at most', 'le'],
  ['at most', 'le'],
  ['is equal to', 'eq'],
  ['equal to', 'eq'],
  ['starts with', 'starts'],
  ['begins with', 'starts'],
  ['ends with', 'ends'],
  ['contains', 'contains'],
  ['includes', 'contains'],
  ['is above', 'gt'],
  ['is below', 'lt'],
  ['above', 'gt'],
  ['below', 'lt'],
  ['over', 'gt'],
  ['under', 'lt'],
  ['equals', 'eq'],
  ['is not', 'ne'],
  ['isnt', 'ne'],
  ["isn't", 'ne'],
  ['is', 'eq'],
  ['>=', 'ge'],
  ['=>', 'ge'],
  ['<=', 'le'],
  ['=<', 'le'],
  ['!=', 'ne'],
  ['<>', 'ne'],
  ['==', 'eq'],
  ['=', 'eq'],
  ['>', 'gt'],
  ['<', 'lt'],
];
const OPERATOR = OPERATORS.map(([word]) => (/^\w/.test(word) ? `${escapeRegex(word)}(?=\\s)` : escapeRegex(word))).join('|');

const filter: Parser = (text, columns) => {
  const col = `(${columns.pattern})`;
  const match = new RegExp(
    `^(?:(?:filter|keep|select|only|just)\\s+)?(?:(?:the|all|only)\\s+)?(?:rows|records|entries|lines|data)?\\s*(?:where|with|whose|when|if|that have|having|for which|by)?\\s*(?:the\\s+)?${col}\\s*(${OPERATOR})\\s*(.+)$`,
    'i',
  ).exec(text);
  if (!match?.[1] || !match[2] || match[3] === undefined) return null;
  // Without one of the filter words the sentence is likely something else ("Amount is what?").
  if (!/^(?:filter|keep|select|only|just|rows|records|entries|lines|data|where|with|whose|when|if|that|having|for which|the rows|all rows|the data)\b/i.test(text)) return null;
  const operator = OPERATORS.find(([word]) => word.toLowerCase() === match[2]!.toLowerCase())?.[1];
  if (!operator) return null;
  const value = literal(match[3]);
  if (value === null) return null;
  if (typeof value === 'string' && ['gt', 'ge', 'lt', 'le'].includes(operator) && !value) return null;
  return { kind: 'filter', column: columns.resolve(match[1]), operator, value };
};

/** A value as written: a quoted text, a number ("1,200", "12.5", "-3", "5%"→5), or the bare words. */
function literal(raw: string): string | number | null {
  const text = raw.trim();
  if (!text) return null;
  const quoted = /^(["'`“])(.*)(["'`”])$/.exec(text);
  if (quoted) return quoted[2]!;
  const numeric = text.replace(/(?<=\d),(?=\d{3}\b)/g, '').replace(/%$/, '');
  if (/^[-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?$/i.test(numeric)) return Number(numeric);
  return text;
}

const top: Parser = (text, columns) => {
  const col = `(${columns.pattern})`;
  let match = new RegExp(
    `^(?:the\\s+)?(top|bottom|highest|lowest|largest|smallest|biggest|best|worst)\\s+(\\d{1,6})\\s+(?:(?:[\\w-]+\\s+){0,2}?)(?:by|of|on|in|for|according to)\\s+(?:the\\s+)?${col}$`,
    'i',
  ).exec(text);
  if (match?.[2] && match[3]) return topRequest(match[1]!, Number(match[2]), columns.resolve(match[3]));
  // "5 highest Amount", "top 5 Amount", "the 3 smallest Price"
  match = new RegExp(`^(?:the\\s+)?(?:(top|bottom)\\s+)?(\\d{1,6})\\s+(highest|lowest|largest|smallest|biggest)?\\s*(?:values\\s+of\\s+)?(?:the\\s+)?${col}(?:\\s+values)?$`, 'i').exec(text);
  if (match?.[2] && match[4] && (match[1] || match[3])) return topRequest(match[1] ?? match[3]!, Number(match[2]), columns.resolve(match[4]));
  return null;
};

function topRequest(word: string, n: number, by: string): SheetRequest | null {
  if (n < 1) return null;
  const largest = /^(?:top|highest|largest|biggest|best)$/i.test(word);
  return { kind: 'top', n, by, largest };
}

const CHART = '(?:(?:a|the)\\s+)?(?:(?:bar|column)\\s+)?(?:chart|graph|plot|bar chart|column chart)';

/** "chart of Amount by Region", "bar chart of average Price per Category", "plot count by Region". */
const chart: Parser = (text, columns) => {
  const col = `(${columns.pattern})`;
  const head = `^(?:make\\s+|draw\\s+|create\\s+|plot\\s+)?${CHART}?\\s*(?:of\\s+)?(?:the\\s+)?`;
  if (!new RegExp(`^(?:make|draw|create|plot)\\b|^${CHART}\\b`, 'i').test(text)) return null;
  // "chart of count by Region", "plot number of rows per Region"
  let match = new RegExp(`${head}(?:count|number)(?:\\s+of)?(?:\\s+(?:rows|records|entries))?\\s+${BY}\\s+(?:the\\s+)?${col}$`, 'i').exec(text);
  if (match?.[1]) return { kind: 'chart', fn: 'count', value: null, by: columns.resolve(match[1]) };
  // "chart of average Price by Category", "chart of the total Amount per Region"
  match = new RegExp(`${head}(?:(${AGGREGATE_WORD})\\s+(?:of\\s+)?(?:the\\s+)?)?${col}\\s+${BY}\\s+(?:the\\s+)?${col}$`, 'i').exec(text);
  if (match?.[2] && match[3]) return { kind: 'chart', fn: match[1] ? fnOf(match[1]) : 'sum', value: columns.resolve(match[2]), by: columns.resolve(match[3]) };
  return null;
};

/** Order matters: a chart before the aggregate it draws; "top 5 by X" before filter's looser pattern; aggregate before describe's "summary". */
const PARSERS: Parser[] = [chart, top, aggregate, sort, describe, filter];
