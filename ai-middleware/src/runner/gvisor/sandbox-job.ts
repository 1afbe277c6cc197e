import type { CellValue, CodeRunRequest } from '@tessera/contracts';

/** The variables built from the sheet's rows; `df` and `headers` are always there. */
const ROW_VARIABLES = /\b(?:rows|records|sheet)\b/;

/**
 * The job as the sandbox's stdin line. When the code names none of `rows`, `records` and `sheet`
 * (anywhere, strings and comments included), the sheet goes as columns: the sandbox then builds
 * only `df`, from typed columns, which is most of the time a 100,000-row job took.
 */
export function sandboxJobLine(job: CodeRunRequest): string {
  if (ROW_VARIABLES.test(job.code)) return `${JSON.stringify(job)}\n`;
  return `${JSON.stringify({ code: job.code, headers: job.headers, columns: columnsOf(job.headers.length, job.rows) })}\n`;
}

/** The first `width` cells of each row as columns; a short row's missing cells are null. */
export function columnsOf(width: number, rows: readonly (readonly CellValue[])[]): CellValue[][] {
  const columns: CellValue[][] = Array.from({ length: width }, () => new Array<CellValue>(rows.length));
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r]!;
    for (let c = 0; c < width; c++) columns[c]![r] = c < row.length ? row[c]! : null;
  }
  return columns;
}
