import { aggregateLabel, describeLoop, py } from './python-writer.js';
import type { Aggregate, SheetRequest } from './sheet-request.js';

type ChartRequest = Extract<SheetRequest, { kind: 'chart' }>;

/**
 * pandas for the requests where it reads better than plain Python — totals by, describe, top N,
 * and the bar chart only this engine can draw — for the gVisor engine, whose jobs get the sheet as
 * the DataFrame `df` (numbers written as text already numbers). The answers are the plain
 * writer's (python-writer.ts): the same question gets the same table on either engine. Sort and
 * filter return the sheet's own rows, so they stay plain (a DataFrame would turn "5.5" typed as
 * text into a number). Null: no pandas program for this request.
 */
export function writePandas(request: Exclude<SheetRequest, ChartRequest>): string | null {
  switch (request.kind) {
    case 'describe':
      return describeCode(request.columns);
    case 'aggregate':
      return request.by === null ? null : `${PRELUDE}\n${groupedCode(request.fn, request.value, request.by)}\nresult = table\n`;
    case 'top':
      return topCode(request.n, request.by, request.largest);
    default:
      return null;
  }
}

const PRELUDE = `# Written by the built-in assistant (no AI model): pandas, on the sheet given as df.
import pandas as pd

# Cells with nothing but spaces are blanks; rows with nothing in them are left out.
filled = df.replace(r"^\\s*$", float("nan"), regex=True).dropna(how="all")

def numbers(column):
    """The column's numbers ("1,200" counts); text that is no number becomes a blank."""
    if column.dtype != object:
        return column
    return pd.to_numeric(column.map(lambda v: v.replace(",", "").strip() if isinstance(v, str) else v), errors="coerce")

def tidy(value):
    """Whole numbers as ints, others rounded to 10 places (no 0.30000000000000004)."""
    value = float(value)
    return int(value) if value.is_integer() else round(value, 10)

def order(key):
    """Numbers first, by value; then texts, alphabetically whatever their case."""
    return (1, 0, key.lower()) if isinstance(key, str) else (0, key, "")
`;


/** `table`: fn of `value` for each `by` (blank keys as "(blank)"), keys in order, named for the grid. */
function groupedCode(fn: Aggregate, value: string | null, by: string): string {
  const name = aggregateLabel(fn, value);
  const measure =
    value === null
      ? `keys.groupby(keys, sort=False).size()`
      : fn === 'count'
        ? `filled[${py(value)}].notna().groupby(keys, sort=False).sum()`
        : `numbers(filled[${py(value)}]).groupby(keys, sort=False).${fn}()`;
  return `# ${name} for each ${by}
keys = filled[${py(by)}].map(lambda k: k.strip() if isinstance(k, str) else k).fillna("(blank)")
table = ${measure}
table = table.loc[sorted(table.index, key=order)].round(10)
table = table.rename(${py(name)}).rename_axis(${py(by)}).reset_index()
print(f"{len(table)} groups")
`;
}

function describeCode(columns: string[]): string {
  return `${PRELUDE}
${describeLoop(columns)}
    values = filled[name].dropna()
    amounts = numbers(values)
    if len(values) and amounts.notna().all():
        table.append([name, len(values), tidy(amounts.sum()), tidy(amounts.mean()), tidy(amounts.min()), tidy(amounts.max()), amounts.nunique()])
    else:
        texts = values.astype(str).str.strip()
        ordered = sorted(texts, key=str.lower)
        table.append([name, len(values), None, None, ordered[0] if ordered else None, ordered[-1] if ordered else None, texts.nunique()])
result = pd.DataFrame(table, columns=["Column", "count", "sum", "mean", "min", "max", "distinct"])
`;
}

function topCode(n: number, by: string, largest: boolean): string {
  const which = largest ? 'largest' : 'smallest';
  return `${PRELUDE}
# The ${n} rows with the ${which} ${by}, as the sheet has them
amounts = numbers(filled[${py(by)}])
if amounts.notna().any():
    # rows without a number there are left out
    picked = amounts.n${which}(${n}, keep="first").index
else:
    # no numbers in ${by}: alphabetically, whatever the case
    texts = filled[${py(by)}].dropna().astype(str).str.strip()
    picked = texts.sort_values(key=lambda s: s.str.lower(), ascending=${largest ? 'False' : 'True'}, kind="stable").index[:${n}]
result = {"headers": headers, "rows": [rows[i] for i in picked]}
`;
}

/** A Matplotlib bar chart of the grouped table (plt.show() sends it to the user), and the table as the result. */
export function writePandasChart({ fn, value, by }: ChartRequest): string {
  const name = aggregateLabel(fn, value);
  return `${PRELUDE}
import matplotlib.pyplot as plt

${groupedCode(fn, value, by)}
# A bar chart of it; the table behind it is the result
fig, ax = plt.subplots(figsize=(8, 4.5))
ax.bar([str(k) for k in table[${py(by)}]], table[${py(name)}].fillna(0), color="#3182ce")
ax.set_title(${py(`${name} by ${by}`)})
ax.set_xlabel(${py(by)})
ax.set_ylabel(${py(name)})
ax.tick_params(axis="x", labelrotation=45 if len(table) > 8 else 0)
fig.tight_layout()
plt.show()
result = table
`;
}
