import type { CodeRunResult, GridData } from '@tessera/contracts';
import type { CodeRunner } from '../runner/code-runner.js';

/**
 * Runs code on a sheet in the code runner, for a request that can be stopped: a Stop before
 * the run or during it ends the request with the signal's reason (and kills the job's child).
 */
export async function runCodeUnlessStopped(
  runner: CodeRunner,
  code: string,
  sheet: { headers: string[]; rows: GridData },
  sheetName: string | undefined,
  signal: AbortSignal,
): Promise<CodeRunResult> {
  if (signal.aborted) throw signal.reason;
  const run = await runner.run({ code, headers: sheet.headers, rows: sheet.rows, ...(sheetName === undefined ? {} : { sheet_name: sheetName }) }, { signal });
  if (signal.aborted) throw signal.reason;
  return run;
}
