import type { Aggregate, FilterOperator, SheetRequest } from './sheet-request.js';

/**
 * Plain Python (the standard library: what Pyodide has) for a parsed sheet request, run by the
 * code runner like any other code: it reads
 * `headers` and `rows` and assigns `result` ({headers, rows} for a table). The code is shown to
 * the user, so it is plain and commented.
 */
export function writePython(request: Exclude<SheetRequest, { kind: 'chart' }>): string {
  switch (request.kind) {
    case 'describe':
      return describeCode(request.columns);
    case 'aggregate':
      return request.by === null ? overallCode(request.fn, request.value!) : groupCode(request.fn, request.value, request.by);
    case 'sort':
      return sortCode(request.by, request.descending);
    case 'filter':
      return filterCode(request.column, request.operator, request.value);
    case 'top':
      return topCode(request.n, request.by, request.largest);
  }
}

/** A one-line account of the request, for the stage texts and the reply. */
export function describeRequest(request: SheetRequest): string {
  switch (request.kind) {
    case 'chart':
      return `bar chart of ${AGGREGATE_LABEL[request.fn].toLowerCase()} of ${request.value ?? 'rows'} by ${request.by}`;
    case 'describe':
      return request.columns.length ? `describe ${request.columns.join(', ')}` : 'describe every column';
    case 'aggregate':
      return `${AGGREGATE_LABEL[request.fn].toLowerCase()} of ${request.value ?? 'rows'}${request.by === null ? '' : ` by ${request.by}`}`;
    case 'sort':
      return `sort by ${request.by}, ${request.descending ? 'descending' : 'ascending'}`;
    case 'filter':
      return `rows where ${request.column} ${OPERATOR_TEXT[request.operator]} ${JSON.stringify(request.value)}`;
    case 'top':
      return `${request.largest ? 'top' : 'bottom'} ${request.n} by ${request.by}`;
  }
}

export const AGGREGATE_LABEL: Record<Aggregate, string> = { sum: 'Total', mean: 'Average', count: 'Count', min: 'Minimum', max: 'Maximum' };
/** The answer column's header: 'Total of Amount', or 'Count' when rows are counted (either engine). */
export const aggregateLabel = (fn: Aggregate, value: string | null): string => (value === null ? 'Count' : `${AGGREGATE_LABEL[fn]} of ${value}`);
const OPERATOR_TEXT: Record<FilterOperator, string> = {
  gt: '>',
  ge: '>=',
  lt: '<',
  le: '<=',
  eq: '=',
  ne: '!=',
  contains: 'contains',
  not_contains: 'does not contain',
  starts: 'starts with',
  ends: 'ends with',
};

/** A Python string literal (JSON's escapes are Python's too). */
export const py = (text: string): string => JSON.stringify(text);

/** Helpers every generated program starts with. */
const PRELUDE = `# Written by the built-in assistant (no AI model): plain Python on the sheet's headers and rows.
import math
import re

def number(value):
    """The cell as a number (int or float), or None when it holds none; '1,200' and ' 3.5 ' count."""
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return value
    text = str(value).strip()
    if re.fullmatch(r"[-+]?\\d{1,3}(,\\d{3})+(\\.\\d+)?", text):
        text = text.replace(",", "")
    if re.fullmatch(r"[-+]?\\d+", text):
        return int(text)
    try:
        result = float(text)
    except ValueError:
        return None
    return result if math.isfinite(result) else None

def blank(value):
    return value is None or (isinstance(value, str) and value.strip() == "")

def cell(row, index):
    return row[index] if index < len(row) else None

def tidy(value):
    """Whole floats as ints, others rounded to 10 places (no 0.30000000000000004)."""
    if isinstance(value, float):
        return int(value) if value.is_integer() else round(value, 10)
    return value

def total(values):
    """Exact sum: ints stay ints, floats are summed without rounding drift."""
    return sum(values) if all(isinstance(v, int) for v in values) else math.fsum(values)

def column(name):
    return headers.index(name)
`;

/** The start of a describe program, either engine's: the columns to go through, one table row each. */
export function describeLoop(columns: string[]): string {
  return `# count, sum, mean, min, max and distinct values of ${columns.length ? 'the columns asked for' : 'every named column'}
names = ${columns.length ? `[${columns.map(py).join(', ')}]` : '[h for h in headers if h.strip()]'}
table = []
for name in names:`;
}

function describeCode(columns: string[]): string {
  return `${PRELUDE}
${describeLoop(columns)}
    index = column(name)
    values = [cell(row, index) for row in rows if not blank(cell(row, index))]
    numbers = [number(v) for v in values]
    numeric = bool(values) and all(n is not None for n in numbers)
    distinct = len({n if n is not None else str(v).strip() for v, n in zip(values, numbers)})
    if numeric:
        table.append([name, len(values), tidy(total(numbers)), tidy(total(numbers) / len(numbers)), tidy(min(numbers)), tidy(max(numbers)), distinct])
    else:
        texts = sorted((str(v).strip() for v in values), key=str.lower)
        table.append([name, len(values), None, None, texts[0] if texts else None, texts[-1] if texts else None, distinct])
result = {"headers": ["Column", "count", "sum", "mean", "min", "max", "distinct"], "rows": table}
`;
}

function aggregateLines(fn: Aggregate): string {
  switch (fn) {
    case 'sum':
      return 'tidy(total(values))';
    case 'mean':
      return '(tidy(total(values) / len(values)) if values else None)';
    case 'count':
      return 'len(values)';
    case 'min':
      return '(tidy(min(values)) if values else None)';
    case 'max':
      return '(tidy(max(values)) if values else None)';
  }
}

function groupCode(fn: Aggregate, value: string | null, by: string): string {
  const label = aggregateLabel(fn, value);
  const collect =
    value === null
      ? '    groups[key].append(1)'
      : fn === 'count'
        ? `    if not blank(cell(row, value_index)):\n        groups[key].append(1)`
        : `    amount = number(cell(row, value_index))\n    if amount is not None:\n        groups[key].append(amount)`;
  return `${PRELUDE}
# ${label} for each ${by}
group_index = column(${py(by)})
${value === null ? '' : `value_index = column(${py(value)})\n`}groups = {}
for row in rows:
    if all(blank(c) for c in row):
        continue
    key = cell(row, group_index)
    key = "(blank)" if blank(key) else (key.strip() if isinstance(key, str) else key)
    groups.setdefault(key, [])
${collect}

def order(key):
    n = number(key)
    return (0, n, "") if n is not None and not isinstance(key, str) else (1, 0, str(key).lower())

table = []
for key in sorted(groups, key=order):
    values = groups[key]
    table.append([key, ${value === null || fn === 'count' ? 'len(values)' : aggregateLines(fn)}])
print(f"{len(table)} groups")
result = {"headers": [${py(by)}, ${py(label)}], "rows": table}
`;
}

function overallCode(fn: Aggregate, value: string): string {
  const label = aggregateLabel(fn, value);
  const values =
    fn === 'count'
      ? `values = [1 for row in rows if not blank(cell(row, index))]`
      : `values = [n for n in (number(cell(row, index)) for row in rows) if n is not None]`;
  return `${PRELUDE}
# ${label}
index = column(${py(value)})
${values}
answer = ${fn === 'count' ? 'len(values)' : aggregateLines(fn)}
print(${py(`${label}:`)}, answer)
result = {"headers": [${py(label)}], "rows": [[answer]]}
`;
}

function sortKeyCode(): string {
  return `def sort_key(value):
    """Numbers first, by value; then texts, alphabetically whatever their case."""
    n = number(value)
    return (0, n, "") if n is not None else (1, 0, str(value).lower())
`;
}

function sortCode(by: string, descending: boolean): string {
  return `${PRELUDE}
# Sort by ${by}, ${descending ? 'descending' : 'ascending'}; rows with an empty ${by} stay last
${sortKeyCode()}
index = column(${py(by)})
filled = [row for row in rows if not blank(cell(row, index))]
empty = [row for row in rows if blank(cell(row, index))]
filled.sort(key=lambda row: sort_key(cell(row, index)), reverse=${descending ? 'True' : 'False'})
result = {"headers": headers, "rows": filled + empty}
`;
}

function topCode(n: number, by: string, largest: boolean): string {
  return `${PRELUDE}
# The ${n} rows with the ${largest ? 'largest' : 'smallest'} ${by}
${sortKeyCode()}
index = column(${py(by)})
filled = [row for row in rows if not blank(cell(row, index))]
filled.sort(key=lambda row: sort_key(cell(row, index)), reverse=${largest ? 'True' : 'False'})
result = {"headers": headers, "rows": filled[:${n}]}
`;
}

function conditionCode(operator: FilterOperator, value: string | number): string {
  if (typeof value === 'number') {
    const compare: Partial<Record<FilterOperator, string>> = { gt: '>', ge: '>=', lt: '<', le: '<=', eq: '==', ne: '!=' };
    const op = compare[operator];
    if (op) {
      // A number compared with a number; != also keeps the rows with no number there.
      return operator === 'ne'
        ? `    n = number(value)\n    return n is None or n != target`
        : `    n = number(value)\n    return n is not None and n ${op} target`;
    }
  }
  const text = `    text = "" if blank(value) else str(value).strip().lower()`;
  switch (operator) {
    case 'eq':
      return `${text}\n    return text == target`;
    case 'ne':
      return `${text}\n    return text != target`;
    case 'contains':
      return `${text}\n    return target in text`;
    case 'not_contains':
      return `${text}\n    return target not in text`;
    case 'starts':
      return `${text}\n    return text.startswith(target)`;
    case 'ends':
      return `${text}\n    return text.endswith(target)`;
    default:
      // > < on text: alphabetical, whatever the case.
      return `${text}\n    return not blank(value) and text ${{ gt: '>', ge: '>=', lt: '<', le: '<=' }[operator]} target`;
  }
}

function filterCode(columnName: string, operator: FilterOperator, value: string | number): string {
  const target = typeof value === 'number' && ['gt', 'ge', 'lt', 'le', 'eq', 'ne'].includes(operator) ? String(value) : py(String(value).trim().toLowerCase());
  return `${PRELUDE}
# Rows where ${columnName} ${OPERATOR_TEXT[operator]} ${JSON.stringify(value)}
index = column(${py(columnName)})
target = ${target}

def keep(value):
${conditionCode(operator, value)}

kept = [row for row in rows if keep(cell(row, index))]
print(f"{len(kept)} of {len(rows)} rows kept")
result = {"headers": headers, "rows": kept}
`;
}
