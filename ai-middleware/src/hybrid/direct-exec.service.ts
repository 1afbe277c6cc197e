import { createHash } from 'node:crypto';
import {
  type CodeRunGrid,
  type CodeRunResult,
  type HybridForwardRequest,
  type HybridResponse,
  type HybridStage,
  PRINTED_OUTPUT_GRID_SOURCES,
  hybridRequestSheet,
} from '@tessera/contracts';
import type { CodeRunner } from '../runner/code-runner.js';

/** Told as each stage of spec 02 §4 is reached, with the text to show for it. */
export type StageListener = (stage: Exclude<HybridStage, 'final_response'>, text: string) => void;

/**
 * Agent • Direct Exec: runs the request's code on its sheet in the confined runner and
 * shapes the AI hybrid response of spec 02 §3. A Python error is a failed response, not a throw;
 * a Stop (the signal) kills the run and throws the signal's reason.
 */
export async function runDirectExec(
  runner: CodeRunner,
  body: HybridForwardRequest,
  onStage: StageListener = () => {},
  signal?: AbortSignal,
): Promise<HybridResponse> {
  const { headers, rows } = hybridRequestSheet(body);
  const name = body.sheet_context?.name;
  onStage('analysis', `Direct Exec on ${name ? `${name} ` : 'the sheet '}(${rows.length} rows × ${headers.length} columns)`);
  onStage('code_generation', 'Running the given Python code (no code is generated in Direct Exec)');
  const run = await runner.run({ code: body.code ?? '', headers, rows, ...(name === undefined ? {} : { sheet_name: name }) }, signal ? { signal } : {});
  if (signal?.aborted) throw signal.reason;
  onStage('frontend_panels', run.error === undefined ? 'The code ran' : 'The code failed');
  onStage(
    'handsontable_updates',
    run.grid ? `Grid: ${run.grid.rows.length} rows × ${run.grid.headers.length} columns` : (run.grid_discarded?.message ?? 'No grid in the result'),
  );
  return toHybridResponse(run);
}

export function toHybridResponse(run: CodeRunResult): HybridResponse {
  const base = { mode: 'agent-direct' as const, execution_output: run.execution_output, result: run.result };
  if (run.error !== undefined) {
    return {
      ...base,
      success: false,
      status: 'failed',
      message: run.error,
      error: run.error,
      has_grid: false,
      // The panel reads a failure's text from langchain_result first (spec 02 §8).
      langchain_result: { status: 'failed', message: run.error },
    };
  }
  const message = successMessage(run);
  return {
    ...base,
    success: true,
    status: 'success',
    message,
    has_grid: run.grid !== undefined,
    ...(run.grid_discarded ? { grid_discarded: run.grid_discarded } : {}),
    ...(run.figures ? { figures: run.figures } : {}),
    ...(run.figures_omitted ? { figures_omitted: run.figures_omitted } : {}),
    ...(run.grid
      ? {
          grid_update: gridUpdate(run.grid),
          handsontable_data: { spreadsheet_data: { headers: run.grid.headers, rows: run.grid.rows } },
        }
      : {}),
    langchain_result: { status: 'success', message },
  };
}

/** What the panel shows: the grid's size, where it came from when it was printed, or why the one found was discarded; and the figures. */
function successMessage(run: CodeRunResult): string {
  const count = run.figures?.length ?? 0;
  const figures = count ? `${count} figure${count === 1 ? '' : 's'}` : '';
  if (run.grid) {
    const printed = (PRINTED_OUTPUT_GRID_SOURCES as readonly string[]).includes(run.grid.source) ? ' (parsed from the printed output)' : '';
    return `Code executed: a grid of ${run.grid.rows.length} rows × ${run.grid.headers.length} columns${printed}${figures ? ` and ${figures}` : ''}`;
  }
  const base = figures ? `Code executed: ${figures}` : 'Code executed';
  return run.grid_discarded ? `${base}. ${run.grid_discarded.message}` : base;
}

/** A grid as the panel receives it; also the schedule solver's (schedule.service.ts). */
export function gridUpdate(
  grid: Pick<CodeRunGrid, 'headers' | 'rows'> & { source: NonNullable<HybridResponse['grid_update']>['source'] },
): NonNullable<HybridResponse['grid_update']> {
  // The panel creates no second sheet for a grid whose hash it has already used (spec 02 §4).
  const hash = createHash('sha256').update(JSON.stringify([grid.headers, grid.rows])).digest('hex');
  return { headers: grid.headers, rows: grid.rows, updated: true, source: grid.source, metadata: { hash, detected_by: grid.source } };
}
