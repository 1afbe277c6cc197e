import { CapabilitiesSchema, describeError, type Capabilities, type ShellContext } from '@tessera/contracts';
import { useEffect, useState } from 'react';

export type CapabilitiesState =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'ready'; capabilities: Capabilities };

/** The ai-middleware's GET /config (spec 02 §3), read once per client. */
export function useCapabilities(ai: ShellContext['ai']): CapabilitiesState {
  const [state, setState] = useState<CapabilitiesState>({ status: 'loading' });
  useEffect(() => {
    let current = true;
    setState({ status: 'loading' });
    ai.get('/config').then(
      (res) => current && setState({ status: 'ready', capabilities: CapabilitiesSchema.parse(res.data) }),
      (error: unknown) => current && setState({ status: 'error', message: describeError(error) }),
    );
    return () => {
      current = false;
    };
  }, [ai]);
  return state;
}
