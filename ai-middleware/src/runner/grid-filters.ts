import type { CellValue, CodeRunGrid } from '@tessera/contracts';

/**
 * The two filters of spec 02 §5 on grids found in a job's output, as precise rules (the
 * spec names them, README § The grid extractor documents them):
 *
 * Schedule shape (grids parsed out of printed output only): at least 5 headers, one of which
 * names the doctor ("doctor id" or "doctor name", compared without case, spaces or
 * punctuation, so Doctor_ID and doctorName count), and at least 3 headers that are a number
 * of 1 or 2 digits (the days: "1", "07", "31").
 *
 * Solver debug log (noise; every grid, `result` included): a grid is noise when
 *  (a) it has exactly one column and at least half of its non-empty cells (below the header)
 *      are log lines, or
 *  (b) one of its headers shows log text (isLogHeader, below).
 * A log line (isLogLine) is text that
 *  - starts with a log level, optionally after a timestamp: "[DEBUG] …", "Info: …",
 *    "warning - …" (marked, any case), "INFO solving …", "2026-11-23 10:00:01 WARNING x"
 *    (in capitals, followed by text); a bare "ERROR" or "Info" is a column name, not a log;
 *  - is a Python traceback line: "Traceback (most recent call last):", `File "<code>", line 3`;
 *  - is a solver's own wording (SOLVER_PHRASE): a solver's name with a version ("Running
 *    HiGHS 1.7.0"), CBC's banner, presolve, branch-and-bound, "Solving MIP …";
 *  - or holds a solver term (SOLVER_TERM: objective, iteration, gap, nodes, bound, status,
 *    feasible, …) together with a digit, ':' or '=': "Iteration 12: obj = 3.5", "MIP gap 0.01%".
 * A header shows log text (isLogHeader) on the first three kinds, or when it is a solver
 * term's status with a value: "Objective value: 12", "Status: Optimal", "gap=0.1%".
 */

/** Spec 02 §5's schedule-shape rule. */
export function looksLikeSchedule(grid: Pick<CodeRunGrid, 'headers'>): boolean {
  const { headers } = grid;
  if (headers.length < 5) return false;
  const namesDoctor = headers.some((h) => /doctor(id|name)/.test(compact(h)));
  const dayHeaders = headers.filter((h) => /^\d{1,2}$/.test(h.trim())).length;
  return namesDoctor && dayHeaders >= 3;
}

/** Spec 02 §5's noise rule: (a) a single column mostly of log lines, or (b) a header showing log text. */
export function looksLikeSolverDebugLog(grid: Pick<CodeRunGrid, 'headers' | 'rows'>): boolean {
  if (grid.headers.some(isLogHeader)) return true;
  if (grid.headers.length !== 1) return false;
  // The header is left out of the count: it is often generated ("A"), and a log one is rule (b).
  const texts = grid.rows.map((row) => cellText(row[0])).filter((t) => t !== '');
  if (texts.length === 0) return false;
  return texts.filter(isLogLine).length * 2 >= texts.length;
}

const LEVEL = '(?:DEBUG|INFO|NOTICE|WARN|WARNING|ERROR|CRITICAL|FATAL|TRACE)';
const TIMESTAMP = String.raw`(?:\[?\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?\]?\s*[-|]?\s*)?`;
/** A level marked as one, in any case: "[info] …", "Info: …", "warning - …". */
const MARKED_LEVEL = new RegExp(String.raw`^\s*${TIMESTAMP}(?:\[${LEVEL}\]|${LEVEL}\s*:|${LEVEL}\s+-\s)`, 'i');
/** A level in capitals followed by text: "INFO solving", "2026-11-23 10:00:01 WARNING x". */
const CAPITAL_LEVEL = new RegExp(String.raw`^\s*${TIMESTAMP}${LEVEL}\s+\S`);
const TRACEBACK_LINE = /^\s*(?:Traceback \(most recent call last\)|File ".*", line \d+)/;
/** Words of MILP/LP solver logs (HiGHS, CBC, GLPK, OR-Tools, PuLP, Gurobi, CPLEX, SCIP). */
const SOLVER_TERM =
  /\b(?:highs|glpk|gurobi|cplex|scip|pulp|or-?tools|cp-?sat|milp|mip|lp|simplex|presolv\w*|objective|obj|iterations?|iter|gap|nodes?|branch\w*|bounds?|relax\w*|incumbent|cuts?|heuristics?|(?:in)?feasib\w*|optimal(?:ity)?|solver|solving|solution|status|constraints?|variables?|coefficients?|dual|primal)\b/i;
/**
 * Wording that is a solver's log on its own, with or without a figure: a solver's name with a
 * version ("Running HiGHS 1.7.0"), CBC's banner, presolve, branch-and-bound, "Solving MIP".
 */
const SOLVER_PHRASE =
  /\b(?:highs|glpk|gurobi|cplex|scip|cp-?sat|or-?tools)\b[^\n]*\d+\.\d+|\bcbc milp\b|\bcoin-or\b|\bpresolv\w*\b|\bbranch[- ]and[- ](?:bound|cut)\b|\bsolving (?:the )?(?:mip|lp|milp|model)\b/i;

function isLevelOrTraceback(text: string): boolean {
  return MARKED_LEVEL.test(text) || CAPITAL_LEVEL.test(text) || TRACEBACK_LINE.test(text) || SOLVER_PHRASE.test(text);
}

/** Whether one cell's text looks like a line of a solver's debug log (rule a). */
export function isLogLine(text: string): boolean {
  return isLevelOrTraceback(text) || (SOLVER_TERM.test(text) && /[\d:=]/.test(text));
}

/**
 * Whether a header shows log text (rule b): stricter than a cell, since "Objective", "Gap (%)"
 * or "Nodes 2" are honest column names; a solver term counts only as a status with a value.
 */
export function isLogHeader(header: string): boolean {
  if (isLevelOrTraceback(header)) return true;
  const status = /^(.*?)[:=]\s*\S/.exec(header);
  return status !== null && SOLVER_TERM.test(status[1]);
}

function cellText(cell: CellValue | undefined): string {
  return cell === null || cell === undefined ? '' : String(cell).trim();
}

/** Lower case, letters and digits only: "Doctor_ID", "doctor id" and "DoctorID" compare equal. */
function compact(header: string): string {
  return header.toLowerCase().replace(/[^a-z0-9]/g, '');
}
