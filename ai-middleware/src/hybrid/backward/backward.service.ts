import {
  AI_POWERED_MAX_FIXES,
  AI_SAMPLE_ROWS,
  BACKWARD_NO_GRID_MESSAGE,
  BACKWARD_UP_TO_DATE_MESSAGE,
  type CodeRunResult,
  type GridDiff,
  type HybridAttempt,
  type HybridBackwardRequest,
  type HybridResponse,
  NO_CODE_IN_REPLY,
  NO_MODEL_CONFIGURED_MESSAGE,
  aiPoweredFailedMessage,
  backwardDifferencesMessage,
  backwardEditedGrid,
  backwardUpdatedMessage,
  hybridRequestSheet,
} from '@tessera/contracts';
import { type AiProvider, type ChatMessage, ProviderError, complete } from '../../providers/provider.js';
import type { CodeRunner } from '../../runner/code-runner.js';
import { codeSystemPrompt, extractCode, fixRequest } from '../code-prompt.js';
import { runCodeUnlessStopped } from '../run-code.js';
import { type StageListener, toHybridResponse } from '../direct-exec.service.js';
import { type Grid, diffGrids } from './grid-diff.js';

/** Low, as for AI Powered's fixes: the program should change where the edits say, not be restyled. */
const CODE_TEMPERATURE = 0.2;
/** The edited grid is shown whole up to this many cells, else its first rows. */
const EDITED_GRID_SHOWN_CELLS = 2000;
const EDITED_ROWS_SHOWN = 50;
/** Differences listed to the model. */
const DIFFS_SHOWN = 100;

export interface BackwardDeps {
  provider: AiProvider;
  runner: CodeRunner;
}

function describeDiff(diff: GridDiff): string {
  const lines = [`${diff.count} ${diff.count === 1 ? 'cell differs' : 'cells differ'}${diff.headers_changed ? ', and the headers differ' : ''}.`];
  for (const c of diff.cells.slice(0, DIFFS_SHOWN)) {
    lines.push(`- row ${c.row + 1}, column ${JSON.stringify(c.header)}: the program gives ${JSON.stringify(c.code)}, the edited grid has ${JSON.stringify(c.sheet)}`);
  }
  if (diff.count > DIFFS_SHOWN) lines.push(`- … and ${diff.count - DIFFS_SHOWN} more`);
  if (diff.code_rows !== diff.sheet_rows) lines.push(`The program gives ${diff.code_rows} rows; the edited grid has ${diff.sheet_rows}.`);
  return lines.join('\n');
}

function taskMessage(body: HybridBackwardRequest, source: Grid, produced: Grid, edited: Grid, diff: GridDiff): ChatMessage {
  const instruction = (body.problem ?? body.instruction ?? '').trim();
  const cells = edited.rows.length * Math.max(edited.headers.length, 1);
  const shownRows = cells <= EDITED_GRID_SHOWN_CELLS ? edited.rows : edited.rows.slice(0, EDITED_ROWS_SHOWN);
  const parts = [
    'The program below ran on the sheet and produced a grid; the user then edited that grid.',
    'Rewrite the program so that, run on the same sheet, it produces the edited grid exactly. Where the edits follow a rule',
    '(a changed formula, a filter, a sort, a renamed column), change the program to follow that rule rather than writing the edited values in one by one.',
    ...(instruction ? ['', `The program was written for: ${instruction}`] : []),
    '',
    `Sheet ${body.sheet_context?.name ? JSON.stringify(body.sheet_context.name) : '(unnamed)'}: ${source.rows.length} rows × ${source.headers.length} columns.`,
    `Headers: ${JSON.stringify(source.headers)}`,
    `First ${Math.min(AI_SAMPLE_ROWS, source.rows.length)} rows (JSON): ${JSON.stringify(source.rows.slice(0, AI_SAMPLE_ROWS))}`,
    '',
    'The program:',
    '```python',
    (body.code ?? '').trim(),
    '```',
    '',
    `Its grid: headers ${JSON.stringify(produced.headers)}, ${produced.rows.length} rows.`,
    `The edited grid: headers ${JSON.stringify(edited.headers)}, ${edited.rows.length} rows${shownRows.length < edited.rows.length ? `; the first ${shownRows.length}` : ''} (JSON): ${JSON.stringify(shownRows)}`,
    '',
    'Differences:',
    describeDiff(diff),
  ];
  return { role: 'user', content: parts.join('\n') };
}

function stillDiffers(diff: GridDiff): ChatMessage {
  return {
    role: 'user',
    content: `That program runs, but its grid still differs from the edited one:\n${describeDiff(diff)}\nFix it. Reply with the whole corrected program in one \`\`\`python code block, and nothing else.`,
  };
}

/** A backward reply carries code, not a grid: the edited grid is already the user's, so nothing is applied or created from it. */
function codeResponse(
  run: CodeRunResult,
  fields: Pick<HybridResponse, 'mode' | 'message' | 'success'> & Partial<HybridResponse>,
): HybridResponse {
  const { grid_update: _grid, handsontable_data: _data, ...rest } = toHybridResponse(run);
  const failed = !fields.success;
  return {
    ...rest,
    has_grid: false,
    status: failed ? 'failed' : 'success',
    ...(failed ? { error: fields.message } : {}),
    langchain_result: { status: failed ? 'failed' : 'success', message: fields.message },
    ...fields,
  };
}

/**
 * POST /hybrid/backward: runs the given code on the sheet, compares its grid with the edited
 * grid (`differences`), and — when they differ, AI generation is on and a model is configured —
 * has the model rewrite the code until its grid is the edited one, up to AI_POWERED_MAX_FIXES
 * fixes (each failed run or remaining difference goes back to the model). builtin says what
 * differs and that a rewrite needs a model. An aborted signal throws its reason.
 */
export async function runBackward(
  deps: BackwardDeps,
  body: HybridBackwardRequest,
  signal: AbortSignal,
  onStage: StageListener = () => {},
): Promise<HybridResponse> {
  const source = hybridRequestSheet(body);
  const edited = backwardEditedGrid(body);
  const sheetName = body.sheet_context?.name;
  const code = (body.code ?? '').trim();
  const run = (program: string) => runCodeUnlessStopped(deps.runner, program, source, sheetName, signal);
  const { provider } = deps;
  const direct = !body.enable_ai_generation;
  const who = direct ? {} : { provider: provider.name, model: provider.model };

  onStage('analysis', `Backward: comparing the code's grid with the edited grid (${edited.rows.length} rows × ${edited.headers.length} columns)`);
  onStage('code_generation', 'Running the given code on the sheet');
  const first = await run(code);
  if (first.error !== undefined) {
    onStage('frontend_panels', 'The code failed');
    onStage('handsontable_updates', 'Nothing to compare');
    return codeResponse(first, { mode: direct ? 'agent-direct' : 'agent-ai', success: false, message: first.error, code, ...who });
  }
  if (!first.grid) {
    onStage('frontend_panels', 'The code ran');
    onStage('handsontable_updates', 'No grid in the result');
    return codeResponse(first, { mode: direct ? 'agent-direct' : 'agent-ai', success: false, message: BACKWARD_NO_GRID_MESSAGE, code, ...who });
  }
  const differences = diffGrids(first.grid, edited);
  const upToDate = differences.count === 0 && !differences.headers_changed;
  onStage('frontend_panels', upToDate ? 'The code produces the edited grid' : backwardDifferencesMessage(differences.count, differences.headers_changed));
  if (upToDate || direct) {
    onStage('handsontable_updates', 'The code is unchanged');
    const message = upToDate ? BACKWARD_UP_TO_DATE_MESSAGE : backwardDifferencesMessage(differences.count, differences.headers_changed);
    return codeResponse(first, { mode: direct ? 'agent-direct' : 'agent-ai', success: true, message, code, differences, ...who });
  }
  if (provider.name === 'builtin') {
    onStage('handsontable_updates', 'The code is unchanged');
    const message = `${backwardDifferencesMessage(differences.count, differences.headers_changed)}. ${NO_MODEL_CONFIGURED_MESSAGE}`;
    return codeResponse(first, { mode: 'agent-ai', success: false, message, code, differences, ...who });
  }

  const messages: ChatMessage[] = [
    { role: 'system', content: codeSystemPrompt(deps.runner.status().engine) },
    taskMessage(body, source, first.grid, edited, differences),
  ];
  const attempts: HybridAttempt[] = [];
  let last: CodeRunResult = first;
  for (let attempt = 0; attempt <= AI_POWERED_MAX_FIXES; attempt += 1) {
    onStage(
      'code_generation',
      attempt === 0 ? `${provider.model} is updating the code to the edited grid` : `${provider.model} is fixing the code (fix ${attempt} of ${AI_POWERED_MAX_FIXES})`,
    );
    let reply: string;
    try {
      reply = await complete(provider, messages, { signal, temperature: CODE_TEMPERATURE });
    } catch (err) {
      if (signal.aborted) throw signal.reason;
      if (err instanceof ProviderError) return codeResponse(last, { mode: 'agent-ai', success: false, message: err.message, code, differences, attempts, ...who });
      throw err;
    }
    messages.push({ role: 'assistant', content: reply });
    const written = extractCode(reply);
    if (written === null) {
      attempts.push({ code: '', error: NO_CODE_IN_REPLY });
      messages.push(fixRequest(NO_CODE_IN_REPLY, ''));
      continue;
    }
    last = await run(written);
    if (last.error !== undefined) {
      attempts.push({ code: written, error: last.error });
      messages.push(fixRequest(last.error, last.execution_output));
      continue;
    }
    const remaining = last.grid ? diffGrids(last.grid, edited) : null;
    if (remaining && remaining.count === 0 && !remaining.headers_changed) {
      attempts.push({ code: written });
      onStage('handsontable_updates', 'The updated code produces the edited grid');
      return codeResponse(last, { mode: 'agent-ai', success: true, message: backwardUpdatedMessage(attempts.length), code: written, differences, attempts, ...who });
    }
    const why = remaining ? backwardDifferencesMessage(remaining.count, remaining.headers_changed) : BACKWARD_NO_GRID_MESSAGE;
    attempts.push({ code: written, error: why });
    messages.push(remaining ? stillDiffers(remaining) : fixRequest(BACKWARD_NO_GRID_MESSAGE, last.execution_output));
  }
  onStage('handsontable_updates', 'The code could not be brought up to date');
  const lastAttempt = attempts.at(-1)!;
  const message = aiPoweredFailedMessage(attempts.length, lastAttempt.error ?? '');
  return codeResponse(last, { mode: 'agent-ai', success: false, message, code: lastAttempt.code, differences, attempts, ...who });
}
