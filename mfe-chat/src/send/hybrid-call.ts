import {
  HYBRID_STAGE_PROGRESS,
  HybridReplyEventSchema,
  HybridReplySchema,
  type HybridReply,
  type HybridStreamStage,
  type ShellContext,
  type SolverStatus,
} from '@tessera/contracts';
import { aiFetch } from './ai-fetch.js';
import { readEventStream } from './event-stream.client.js';
import { httpFailure } from './http-failure.js';
import { STREAM_TEXTS, StreamError } from './stream-errors.js';

export interface HybridProgress {
  /** A stage reached; `queuePosition` with the `queued` stage (the job waits its turn on the server). */
  stage(stage: HybridStreamStage, progress: number, queuePosition?: number): void;
  /** A progress line: replaces the last one when `replaceLast`. */
  line(text: string, replaceLast: boolean): void;
  /** A schedule solve's status as it goes (retrying n of max): the solver badge follows it. */
  solverStatus?(status: SolverStatus): void;
}

/** JSON.parse then the schema; anything else is a read error of the stream. */
function parseEvent(data: string) {
  try {
    return HybridReplyEventSchema.parse(JSON.parse(data));
  } catch {
    throw new StreamError(STREAM_TEXTS.readError);
  }
}

/**
 * POST /hybrid/forward (spec 02 §4, §7). Streaming: Server-Sent Events through the stages
 * until one finishes the stream (finished, the final_response stage, or workflow_complete);
 * the last carries the whole response. Standard: one JSON reply. Rejects with the spec's text.
 */
export async function callHybrid(
  ai: ShellContext['ai'],
  body: object,
  streaming: boolean,
  signal: AbortSignal,
  progress: HybridProgress,
): Promise<HybridReply | null> {
  if (!streaming) {
    try {
      const { data } = await ai.post<unknown>('/hybrid/forward', body, { signal });
      return HybridReplySchema.parse(data);
    } catch (error) {
      if (signal.aborted) return null;
      throw new StreamError(httpFailure(error));
    }
  }

  let reply: HybridReply | null = null;
  let streamError: string | null = null;
  await readEventStream({
    path: '/hybrid/forward',
    body,
    signal,
    fetch: aiFetch(ai),
    onJson(json) {
      reply = HybridReplySchema.parse(json);
    },
    onData(data) {
      const event = parseEvent(data);
      const meta = event.metadata;
      if (meta?.stage === 'queued') progress.stage('queued', 0, meta.queue_position);
      else if (meta?.stage) progress.stage(meta.stage, meta.progress ?? HYBRID_STAGE_PROGRESS[meta.stage]);
      if (meta?.ui) progress.line(meta.ui.text, meta.ui.replace_last);
      else if (event.text) progress.line(event.text, false);
      if (meta?.solver_status) progress.solverStatus?.(meta.solver_status);
      if (event.error) streamError = event.error;
      if (meta?.response) reply = { ...meta.response, snapshot: meta.response.snapshot ?? meta.snapshot };
      else if (meta?.snapshot && reply) reply = { ...reply, snapshot: meta.snapshot };
      return !!event.finished || meta?.stage === 'final_response' || !!meta?.workflow_complete;
    },
  });
  if (signal.aborted) return null;
  if (reply) return reply;
  throw new StreamError(streamError ?? STREAM_TEXTS.failed);
}
