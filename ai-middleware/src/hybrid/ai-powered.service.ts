import {
  AI_POWERED_DEFAULT_INSTRUCTION,
  AI_POWERED_MAX_FIXES,
  type CodeRunResult,
  type GridData,
  type HybridAttempt,
  type HybridForwardRequest,
  type HybridResponse,
  NO_CODE_IN_REPLY,
  NO_MODEL_CONFIGURED_MESSAGE,
  aiPoweredFailedMessage,
  hybridRequestSheet,
} from '@tessera/contracts';
import { parseSheetRequest } from '../providers/builtin/sheet-request.parser.js';
import { writePandas, writePandasChart } from '../providers/builtin/pandas-writer.js';
import { aggregateLabel, describeRequest, writePython } from '../providers/builtin/python-writer.js';
import { extractChartRequest, wholeGrid } from './ai-chart.js';
import { chartNeedsMatplotlib } from '../providers/builtin/sheet-request.js';
import { type AiProvider, type ChatMessage, ProviderError, complete } from '../providers/provider.js';
import { type CodeRunner, runnerUnavailableReason } from '../runner/code-runner.js';
import { codeMessages, extractCode, fixRequest } from './code-prompt.js';
import { runCodeUnlessStopped } from './run-code.js';
import { type StageListener, toHybridResponse } from './direct-exec.service.js';
import { type GitFileText, requestFilePaths } from './git-files.js';
import { requestProblem } from '../schedule/input/request-problem.js';
import { extractScheduleJson, parseScheduleJson, scheduleFixRequest } from '../schedule/input/schedule-prompt.js';
import { type SolverStatusListener, solveToResponse } from '../schedule/input/schedule-solve.js';

/** Lower than chat's 0.7: a fix should change what failed, not rewrite the program in a new style. */
const CODE_TEMPERATURE = 0.2;

export interface AiPoweredDeps {
  provider: AiProvider;
  runner: CodeRunner;
  readGitFiles: (paths: string[]) => Promise<GitFileText[]>;
}

/**
 * Agent • AI Powered (enable_ai_generation true): the provider writes Python from the
 * instruction, the sheet's headers and first rows, the selected git files and the last
 * messages; it runs in the code runner; an error goes back to the model for up to
 * AI_POWERED_MAX_FIXES fixes. builtin (no model) writes the code for the requests it parses.
 * A staff-scheduling request is solved instead (README "Schedule requests"): builtin parses it
 * (before the sheet requests); a model answers it with a ```schedule-json problem instead of
 * code, checked with ScheduleProblemSchema, its issues going back for the same fixes.
 * A provider error is a failed response; an aborted signal throws its reason.
 */
export async function runAiPowered(
  deps: AiPoweredDeps,
  body: HybridForwardRequest,
  signal: AbortSignal,
  onStage: StageListener = () => {},
  onSolverStatus: SolverStatusListener = () => {},
): Promise<HybridResponse> {
  const instruction = body.problem?.trim() || body.instruction?.trim() || AI_POWERED_DEFAULT_INSTRUCTION;
  const { headers, rows } = hybridRequestSheet(body);
  const sheetName = body.sheet_context?.name;
  const { provider } = deps;
  const who: Who = { provider: provider.name, model: provider.model, echo_prompt: instruction };
  const sheetText = `${sheetName ? `${sheetName} ` : 'the sheet '}(${rows.length} rows × ${headers.length} columns)`;

  if (provider.name === 'builtin') {
    onStage('analysis', `AI Powered on ${sheetText}, with the built-in assistant (no AI model)`);
    const scheduled = requestProblem(instruction, { headers, rows });
    if (scheduled && 'error' in scheduled) return failed(scheduled.error, who, []);
    if (scheduled) {
      const request = { kind: 'schedule' as const, problem: scheduled.problem, relaxation_level: 0, manual_retry: false };
      return solveToResponse({ request, mode: 'agent-ai', extra: who, signal, onStage, onSolverStatus });
    }
    return runBuiltin({ runner: deps.runner, instruction, headers, rows, sheetName, signal, onStage, who });
  }

  const files = await deps.readGitFiles(requestFilePaths(body));
  const fileText = files.length ? `, ${files.length} git file${files.length === 1 ? '' : 's'}` : '';
  onStage('analysis', `AI Powered on ${sheetText}${fileText}, with ${provider.model}`);
  const messages: ChatMessage[] = codeMessages({
    instruction,
    sheetName,
    headers,
    rows,
    code: body.code,
    files,
    conversation: body.conversation_context,
  }, deps.runner.status().engine);
  const attempts: HybridAttempt[] = [];
  let run: CodeRunResult | undefined;
  /** What the last reply was: code, or a schedule problem (```schedule-json). */
  let lastKind: 'code' | 'schedule' = 'code';
  for (let attempt = 0; attempt <= AI_POWERED_MAX_FIXES; attempt += 1) {
    const what = lastKind === 'schedule' ? 'The schedule problem is invalid' : 'The code failed';
    onStage(
      'code_generation',
      attempt === 0
        ? `${provider.model} is writing the Python code (or a schedule problem)`
        : `${what} (${(lastKind === 'schedule' ? firstLine : lastLine)(attempts.at(-1)!.error!)}); ${provider.model} is fixing it (fix ${attempt} of ${AI_POWERED_MAX_FIXES})`,
    );
    let reply: string;
    try {
      reply = await complete(provider, messages, { signal, temperature: CODE_TEMPERATURE });
    } catch (err) {
      if (signal.aborted) throw signal.reason;
      if (err instanceof ProviderError) return failed(err.message, who, attempts);
      throw err;
    }
    messages.push({ role: 'assistant', content: reply });
    const json = extractScheduleJson(reply);
    if (json !== null) {
      lastKind = 'schedule';
      const parsed = parseScheduleJson(json, { headers, rows });
      if ('error' in parsed) {
        attempts.push({ code: json, error: parsed.error });
        messages.push(scheduleFixRequest(parsed.error));
        continue;
      }
      attempts.push({ code: json });
      const request = { kind: 'schedule' as const, problem: parsed.problem, relaxation_level: 0, manual_retry: false };
      return solveToResponse({ request, mode: 'agent-ai', extra: { ...who, attempts }, signal, onStage, onSolverStatus });
    }
    lastKind = 'code';
    const code = extractCode(reply);
    if (code === null) {
      attempts.push({ code: '', error: NO_CODE_IN_REPLY });
      messages.push(fixRequest(NO_CODE_IN_REPLY, ''));
      continue;
    }
    run = await runCodeUnlessStopped(deps.runner, code, { headers, rows }, sheetName, signal);
    if (run.error === undefined) {
      attempts.push({ code });
      stagesAfterRun(onStage, run);
      // A ```chart-json block beside the program: a Tessera chart (made on the sheet by the route, or on the result's sheet by the panel).
      const chart = extractChartRequest(reply, run.grid);
      const response: HybridResponse = { ...toHybridResponse(run), mode: 'agent-ai', code, attempts, ...who };
      if (chart === null) return response;
      if ('error' in chart) return { ...response, message: `${response.message}\n${chart.error}` };
      if (chart.target === 'result' && !run.grid) return { ...response, message: `${response.message}\nThe chart over the result was not made: the code returned no table` };
      return { ...response, chart: { request: chart } };
    }
    attempts.push({ code, error: run.error });
    // A runner that cannot run code at all is not the code's fault: no fix would help.
    if (runnerUnavailableReason(deps.runner)) return failed(run.error, who, attempts);
    messages.push(fixRequest(run.error, run.execution_output));
  }
  const lastError = attempts.at(-1)!.error!;
  if (lastKind === 'schedule') {
    onStage('frontend_panels', `The schedule problem was still invalid after ${attempts.length} attempts`);
    onStage('handsontable_updates', 'No grid in the result');
    return failed(scheduleInvalidMessage(attempts.length, lastError), who, attempts, false);
  }
  onStage('frontend_panels', `The code failed after ${attempts.length} attempts`);
  onStage('handsontable_updates', 'No grid in the result');
  const message = aiPoweredFailedMessage(attempts.length, lastError);
  const last = attempts.at(-1)!;
  return {
    ...(run ? toHybridResponse(run) : toHybridResponse({ execution_output: '', result: null, error: lastError })),
    mode: 'agent-ai',
    message,
    error: message,
    langchain_result: { status: 'failed', message },
    code: last.code,
    attempts,
    ...who,
  };
}

/** builtin: the Python written for a request it parses, run once (there is no model to fix it). */
async function runBuiltin(job: {
  runner: CodeRunner;
  instruction: string;
  headers: string[];
  rows: GridData;
  sheetName: string | undefined;
  signal: AbortSignal;
  onStage: StageListener;
  who: Who;
}): Promise<HybridResponse> {
  const { runner, instruction, headers, rows, sheetName, signal, onStage, who } = job;
  const parsed = parseSheetRequest(instruction, headers);
  if (!parsed || 'unknownColumn' in parsed) {
    const message = parsed
      ? `This sheet has no column named "${parsed.unknownColumn}"; its columns are: ${headers.filter((h) => h.trim()).join(', ') || '(none)'}`
      : NO_MODEL_CONFIGURED_MESSAGE;
    return failed(message, who, []);
  }
  const { request } = parsed;
  // pandas where the engine has it (gVisor); the standard library on Pyodide, which cannot draw.
  const pandas = (await runner.engine())?.name === 'gvisor';
  if (request.kind === 'chart' && !pandas) return failed(chartNeedsMatplotlib(request), who, []);
  const code = request.kind === 'chart' ? writePandasChart(request) : ((pandas ? writePandas(request) : null) ?? writePython(request));
  onStage('code_generation', `Python written for: ${describeRequest(request)}`);
  const run = await runCodeUnlessStopped(runner, code, { headers, rows }, sheetName, signal);
  stagesAfterRun(onStage, run);
  const attempts: HybridAttempt[] = [run.error === undefined ? { code } : { code, error: run.error }];
  const response: HybridResponse = { ...toHybridResponse(run), mode: 'agent-ai', code, attempts, ...who };
  // Beside the Matplotlib figure, a Tessera column chart over the result table (the new sheet the panel makes of it).
  if (request.kind === 'chart' && run.error === undefined && run.grid && run.grid.rows.length > 0) {
    const label = aggregateLabel(request.fn, request.value);
    const chart = { target: 'result' as const, type: 'column' as const, range: wholeGrid(run.grid), categories: 'first_column' as const };
    return { ...response, chart: { request: { ...chart, title: `${label} by ${request.by}`, x_axis_title: request.by, y_axis_title: label } } };
  }
  return response;
}

function stagesAfterRun(onStage: StageListener, run: CodeRunResult): void {
  onStage('frontend_panels', run.error === undefined ? 'The code ran' : 'The code failed');
  onStage('handsontable_updates', run.grid ? `Grid: ${run.grid.rows.length} rows × ${run.grid.headers.length} columns` : 'No grid in the result');
}

/** The model's last problem was still invalid: the attempts and the issues. */
export function scheduleInvalidMessage(attempts: number, error: string): string {
  return `The schedule problem was still invalid after ${attempts} attempts: ${error}`;
}

/** A schedule problem's issues start on their own line: the stage line shows the first. */
function firstLine(error: string): string {
  return lastLine(error.split('\n').find((line) => line.startsWith('- ')) ?? error);
}

/** A traceback's last line names the error ("ZeroDivisionError: division by zero"). */
function lastLine(error: string): string {
  const line = error.trim().split('\n').at(-1) ?? error;
  return line.length > 160 ? `${line.slice(0, 157)}...` : line;
}

type Who = Pick<HybridResponse, 'provider' | 'model' | 'echo_prompt'>;

/** A failed response; `withCode` false: the attempts were schedule problems, not code to show as `code`. */
function failed(message: string, who: Who, attempts: HybridAttempt[], withCode = true): HybridResponse {
  const last = attempts.at(-1);
  return {
    success: false,
    status: 'failed',
    message,
    error: message,
    mode: 'agent-ai',
    execution_output: '',
    result: null,
    has_grid: false,
    langchain_result: { status: 'failed', message },
    ...(last ? { ...(withCode ? { code: last.code } : {}), attempts } : {}),
    ...who,
  };
}
