import type { HybridForwardRequest, HybridResponse, ScheduleOptimization } from '@tessera/contracts';
import type { AiProvider } from '../../providers/provider.js';
import { type ScheduleJob, describeProblem, solveToResponse } from './schedule-solve.js';

/**
 * parameters.optimization of POST /hybrid/forward: a schedule problem given as JSON (already
 * validated with ScheduleOptimizationSchema by the route's body schema) is solved as it is, in
 * either mode, with no code and no model. 'Retry with Simpler Requirements' sends this with the
 * next relaxation_level and manual_retry.
 */
export function runOptimization(
  body: HybridForwardRequest,
  optimization: ScheduleOptimization,
  provider: AiProvider,
  listeners: Pick<ScheduleJob, 'signal' | 'onStage' | 'onSolverStatus'>,
): Promise<HybridResponse> {
  const aiMode = body.enable_ai_generation;
  const instruction = body.problem?.trim() || body.instruction?.trim();
  const retry = optimization.manual_retry ? ' (Retry with Simpler Requirements)' : '';
  listeners.onStage('analysis', `Schedule problem from the request's parameters${retry}: ${describeProblem(optimization.problem)}`);
  return solveToResponse({
    request: optimization,
    mode: aiMode ? 'agent-ai' : 'agent-direct',
    // AI Powered keeps who answers and the instruction, as its other replies do.
    ...(aiMode ? { extra: { provider: provider.name, model: provider.model, ...(instruction ? { echo_prompt: instruction } : {}) } } : {}),
    ...listeners,
  });
}
