import { CAPABILITY_DISCOVERY_TIMEOUT_MS, CapabilitiesSchema, describeError, type Capabilities, type ShellContext } from '@tessera/contracts';
import { useEffect, useState } from 'react';

export type CapabilitiesState =
  | { status: 'loading' }
  /** Discovery failed: the defaults are used (spec 02 §8). */
  | { status: 'defaults'; message: string }
  | { status: 'ready'; capabilities: Capabilities };

/** The ai-middleware's GET /config (spec 02 §3, 30 s time-out), read once per client. */
export function useCapabilities(ai: ShellContext['ai']): CapabilitiesState {
  const [state, setState] = useState<CapabilitiesState>({ status: 'loading' });
  useEffect(() => {
    let current = true;
    const controller = new AbortController();
    setState({ status: 'loading' });
    ai.get('/config', { timeout: CAPABILITY_DISCOVERY_TIMEOUT_MS, signal: controller.signal }).then(
      (res) => current && setState({ status: 'ready', capabilities: CapabilitiesSchema.parse(res.data) }),
      (error: unknown) => current && setState({ status: 'defaults', message: describeError(error) }),
    );
    return () => {
      current = false;
      controller.abort();
    };
  }, [ai]);
  return state;
}

/** Streaming is offered unless the middleware says it has none (the default when discovery failed is to stream). */
export const streamingSupported = (state: CapabilitiesState): boolean =>
  state.status === 'ready' ? state.capabilities.streamingSupported : true;

/** The service line under the toggles: what the ai-middleware says it can do. */
export function serviceLine(state: CapabilitiesState): string {
  if (state.status === 'loading') return 'Checking the AI service...';
  if (state.status === 'defaults') return `AI service capabilities unavailable (${state.message}): defaults are used`;
  const { provider, version } = state.capabilities;
  return `AI service: ${provider} ${version} • ${state.capabilities.streamingSupported ? 'Streaming available' : 'Streaming unavailable'}`;
}
