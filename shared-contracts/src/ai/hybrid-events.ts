import { HYBRID_QUEUED_STAGE, HYBRID_STAGE_PROGRESS, type HybridResponse, type HybridStage, type HybridStreamEvent } from './hybrid.schema.js';
import type { SolverStatus } from '../schedule/schedule-result.schema.js';
import { jobQueuedText } from './quotas.js';

/** The events of a /hybrid/forward stream (spec 02 §4, §7), one definition for the service and the fakes that speak its protocol. */

/** A stage reached: the first line (analysis) stays; each later progress line replaces the one before. */
export function hybridStageEvent(stage: Exclude<HybridStage, 'final_response'>, text: string): HybridStreamEvent {
  return {
    text,
    metadata: { stage, progress: HYBRID_STAGE_PROGRESS[stage], ui: { text, replace_last: stage !== 'analysis' } },
    error: null,
    finished: false,
  };
}

/** The job waits for a slot: its place in the queue (progress 0), each new place replacing the last line. */
export function jobQueuedEvent(position: number): HybridStreamEvent {
  const text = jobQueuedText(position);
  return {
    text,
    metadata: { stage: HYBRID_QUEUED_STAGE, progress: 0, ui: { text, replace_last: true }, queue_position: position },
    error: null,
    finished: false,
  };
}

/** A schedule solve's status as it goes (retrying n of max), for the panel's solver badge: a progress line of the solving stage. */
export function solverStatusEvent(status: SolverStatus, text: string): HybridStreamEvent {
  return {
    text,
    metadata: {
      stage: 'code_generation',
      progress: HYBRID_STAGE_PROGRESS.code_generation,
      ui: { text, replace_last: true },
      solver_status: status,
    },
    error: null,
    finished: false,
  };
}

/** The last event: workflow_complete with the whole response (its solver status included) and its snapshot, when it has one. */
export function finalResponseEvent(response: HybridResponse): HybridStreamEvent {
  return {
    text: response.message,
    metadata: {
      stage: 'final_response',
      progress: HYBRID_STAGE_PROGRESS.final_response,
      ui: { text: response.message, replace_last: false },
      workflow_complete: true,
      response,
      ...(response.snapshot ? { snapshot: response.snapshot } : {}),
    },
    error: response.error ?? null,
    finished: true,
  };
}
