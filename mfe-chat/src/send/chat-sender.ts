import {
  CHAT_RESULT_PREVIEW_CHARS,
  DIRECT_EXEC_DEFAULT_INSTRUCTION,
  GitFileContentSchema,
  MAX_SOLVER_RETRIES,
  SCHEDULE_GRID_EXTRACTION_FAILED,
  STREAM_TIMEOUT_MS,
  describeError,
  hybridFailureMessage,
  hybridReplyGrid,
  solverFailedShort,
  type HybridReply,
  type ScheduleOptimization,
  type SelectedFunction,
  type ShellContext,
} from '@tessera/contracts';
import type { ChatMode } from '../composer/chat-mode.js';
import type { ChatStore, StreamOutcome } from '../messages/chat.store.js';
import { placeResult } from '../results/place-result.js';
import { recordSolverReply, setSolverStatus } from '../solver/solver.store.js';
import { callChat } from './chat-call.js';
import { callHybrid } from './hybrid-call.js';
import { buildHybridRequest, fencedCode } from './hybrid-request.js';
import { STREAM_TEXTS, StreamError, errorMessageText } from './stream-errors.js';
import { buildWorkspaceContext, conversationContext } from './workspace-context.js';

export interface SendRequest {
  prompt: string;
  mode: ChatMode;
  /** A schedule problem solved as it is (parameters.optimization): no code, no model ('Retry with Simpler Requirements'). */
  optimization?: ScheduleOptimization;
}

/** What the panel knows at the moment of sending. */
export interface SendContext {
  streaming: boolean;
  gitFiles: string[];
  /** Functions picked in the context area (spec 02 §3 selected_functions). */
  functions: SelectedFunction[];
  sessionId: string | null;
}

export interface ChatSender {
  send(request: SendRequest): Promise<void>;
  /** Stop: aborts the request in flight. */
  stop(): void;
  /** The Stream Error box's Reload: sends the last request again. */
  reload(): Promise<void>;
}

/** Spec 02 §4: the final_response stage shows complete, failed or infeasible. */
function outcomeOf(reply: HybridReply): StreamOutcome {
  const status = (reply.status ?? '').toLowerCase();
  if (status === 'infeasible' || /infeasible/i.test(reply.langchain_result?.status ?? '')) return 'infeasible';
  return hybridFailureMessage(reply) || scheduleGridMissing(reply) ? 'failed' : 'complete';
}

/** Spec 02 §8: the solver says it succeeded, yet the reply holds no grid to make a sheet of. */
function scheduleGridMissing(reply: HybridReply): boolean {
  return reply.backend_solver?.result?.success === true && (reply.has_grid === false || hybridReplyGrid(reply) === null);
}

/** A suggested action as literal Markdown text (its numbers and signs are not markup). */
const markdownText = (text: string) => text.replace(/[\\`*_[\]<>]/g, (c) => `\\${c}`);

/** Spec 02 §8: 'Solver failed after N attempts' with the suggested actions, under the reply that exceeded its retries. */
function solverFailureText(reply: HybridReply): string | null {
  if (!reply.retry_exceeded) return null;
  const actions = reply.suggested_actions ?? [];
  const short = `**${solverFailedShort(MAX_SOLVER_RETRIES)}**`;
  return actions.length === 0 ? short : `${short}\n\n${actions.map((a) => `- ${markdownText(a)}`).join('\n')}`;
}

/** A fenced Markdown block whose fence is longer than any run of backticks in the text, so the text cannot close it. */
function fencedBlock(language: string, text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${language}\n${text}\n${fence}`;
}

/** The start of the printed output a message shows (spec 02 §9): 200 characters beside a grid, else 400. */
export function outputPreview(reply: HybridReply, output: string): string {
  const limit = reply.has_grid !== false && hybridReplyGrid(reply) !== null ? CHAT_RESULT_PREVIEW_CHARS.withGrid : CHAT_RESULT_PREVIEW_CHARS.alone;
  return output.length > limit ? output.slice(0, limit) : output;
}

/**
 * The reply as its message shows it: the message or failure, in Agent • AI Powered the Python
 * that ran (the user sees what was done to the sheet, and that the builtin assistant wrote real
 * code rather than answered as a model), the printed output, and where the result went.
 */
function replyText(reply: HybridReply, note: string | null, showCode: boolean): string {
  const failure = hybridFailureMessage(reply) ?? (scheduleGridMissing(reply) ? SCHEDULE_GRID_EXTRACTION_FAILED : null);
  const parts = [failure ? errorMessageText(failure) : reply.message || 'Done.'];
  const solverFailure = solverFailureText(reply);
  if (solverFailure) parts.push(solverFailure);
  // The panel's reply schema keeps unknown fields loose: `code` is the middleware's string (AI Powered), checked here.
  const code = showCode ? reply.code?.trimEnd() : undefined;
  if (code) parts.push(`**Code**\n\n${fencedBlock('python', code)}`);
  const output = reply.execution_output?.trimEnd();
  if (output) {
    const preview = outputPreview(reply, output);
    parts.push(`**Output**\n\n${fencedBlock('text', preview === output ? output : `${preview}\n…`)}`);
  }
  if (note) parts.push(note);
  return parts.join('\n\n');
}

/** The code Agent • Direct Exec runs: a fenced block of the message, else the message, else the first git file's content. */
async function directExecCode(shell: ShellContext, prompt: string, gitFiles: string[]): Promise<string | undefined> {
  const fenced = fencedCode(prompt);
  if (fenced !== null) return fenced;
  if (prompt !== DIRECT_EXEC_DEFAULT_INSTRUCTION) return prompt;
  if (gitFiles.length === 0) return undefined;
  const { data } = await shell.ai.get<unknown>('/git/code-content', { params: { identifier: gitFiles[0] } });
  return GitFileContentSchema.parse(data).content;
}

/**
 * Sends one message at a time (spec 02 §2, §4): the user's message, then the reply streamed
 * into an assistant message with the stages on the progress bar, Stop through an
 * AbortController, the 10-minute limit, and the result put where it belongs.
 */
export function createChatSender(getShell: () => ShellContext, store: ChatStore, getContext: () => SendContext, onReplied?: () => void): ChatSender {
  let controller: AbortController | null = null;
  let last: SendRequest | null = null;

  const state = () => store.getState();

  async function send(request: SendRequest): Promise<void> {
    if (controller) return;
    const shell = getShell();
    const context = getContext();
    last = request;
    const abort = new AbortController();
    controller = abort;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      abort.abort();
    }, STREAM_TIMEOUT_MS);

    const conversation = conversationContext(state().messages);
    state().add({ role: 'user', content: request.prompt });
    const replyId = state().add({ role: 'assistant', content: '', pending: true, streaming: context.streaming });
    state().setStream({ status: 'streaming', stage: null, progress: 0, queuePosition: null, outcome: null, streamError: null });
    const lines: string[] = [];

    try {
      if (request.mode === 'chat') {
        const text = await callChat(
          shell.ai,
          {
            message: request.prompt,
            sessionId: context.sessionId,
            workspaceContext: await buildWorkspaceContext(shell.sheet, context.gitFiles, context.functions),
            conversation,
            streaming: context.streaming,
            enhanced: shell.flags.enhancedChat,
          },
          abort.signal,
          (soFar) => state().update(replyId, { content: soFar, pending: false }),
        );
        if (text === null) throw abortSignal;
        state().update(replyId, { content: text, pending: false, streaming: false });
        state().setStream({ status: 'completed', progress: 100, outcome: 'complete' });
      } else {
        const { optimization } = request;
        const body = await buildHybridRequest(shell.sheet, {
          prompt: request.prompt,
          code: request.mode === 'agent-direct' && !optimization ? await directExecCode(shell, request.prompt, context.gitFiles) : undefined,
          aiGeneration: request.mode === 'agent-ai' && !optimization,
          optimization,
          streaming: context.streaming,
          gitFiles: context.gitFiles,
          sessionId: context.sessionId,
          mergeTimeline: true,
        });
        const reply = await callHybrid(
          shell.ai,
          { ...body, ...(request.mode === 'agent-ai' ? { conversation_context: conversation } : {}) },
          context.streaming,
          abort.signal,
          {
            stage: (stage, progress, queuePosition) => state().setStream({ stage, progress, queuePosition: queuePosition ?? null }),
            line: (text, replaceLast) => {
              if (replaceLast && lines.length > 0) lines[lines.length - 1] = text;
              else lines.push(text);
              state().update(replyId, { content: lines.join('\n\n'), pending: false });
            },
            solverStatus: setSolverStatus,
          },
        );
        if (reply === null) throw abortSignal;
        recordSolverReply(reply);
        const outcome = outcomeOf(reply);
        const placed = outcome === 'complete' ? await placeResult(shell, reply) : { note: null };
        const gitLinks = reply.langgraph_data?.frontend_panels?.git_history;
        state().update(replyId, {
          content: replyText(reply, placed.note, request.mode === 'agent-ai'),
          pending: false,
          streaming: false,
          metadata: {
            ...(gitLinks?.length ? { gitLinks } : {}),
            ...(placed.createdSheet ? { createdSheet: placed.createdSheet } : {}),
            ...(placed.chart ? { chart: placed.chart } : {}),
            ...(outcome !== 'complete' || placed.error ? { error: true } : {}),
            ...fullOutputOf(reply),
            ...(reply.figures?.length ? { figures: reply.figures } : {}),
            ...(reply.figures_omitted ? { figuresOmitted: reply.figures_omitted } : {}),
          },
        });
        state().setStream({ status: 'completed', stage: 'final_response', progress: 100, outcome });
      }
      onReplied?.();
    } catch (error) {
      if (error === abortSignal || (abort.signal.aborted && !timedOut)) {
        state().update(replyId, (m) => ({ pending: false, streaming: false, content: m.content || 'Stopped.' }));
        state().setStream({ status: 'stopped' });
      } else {
        const reason = timedOut ? STREAM_TEXTS.timedOut : error instanceof StreamError ? error.message : describe(error);
        state().update(replyId, { content: errorMessageText(reason), pending: false, streaming: false, metadata: { error: true } });
        state().setStream({ status: 'error', streamError: reason });
      }
    } finally {
      clearTimeout(timer);
      controller = null;
    }
  }

  return {
    send,
    stop() {
      controller?.abort();
    },
    async reload() {
      if (last) await send(last);
    },
  };
}

/** The whole output, kept when the message shows only its start. */
function fullOutputOf(reply: HybridReply): { fullOutput?: string } {
  const output = reply.execution_output?.trimEnd();
  return output && outputPreview(reply, output) !== output ? { fullOutput: output } : {};
}

/** Thrown inside send when the request was stopped, so the stop is told once. */
const abortSignal = new Error('stopped');

function describe(error: unknown): string {
  return describeError(error);
}
