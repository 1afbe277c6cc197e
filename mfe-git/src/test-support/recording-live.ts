import type { LiveOperationInput, LiveServerFrame, ShellLive } from '@tessera/contracts';

/**
 * Test support: the shell's live socket as a remote sees it (ShellLive), answering each sent
 * operation with the server's `ack` (its version) on the next tick, as the api does once the
 * operation is stored; `refuse` answers the next one with an `error` frame instead. It records
 * what was sent and how many reload_requests went out. The socket itself is tested in the
 * shell and the api.
 */
export interface RecordingLive extends ShellLive {
  sent: LiveOperationInput[];
  reloads: number;
  /** Holds the acks back until release() (an operation still on its way). */
  hold(): void;
  release(): void;
}

export function recordingLive(startVersion = 1): RecordingLive {
  const listeners = new Set<(frame: LiveServerFrame) => void>();
  let version = startVersion;
  let held: LiveServerFrame[] | null = null;
  const deliver = (frame: LiveServerFrame) => {
    if (held) held.push(frame);
    else setTimeout(() => listeners.forEach((l) => l(frame)), 0);
  };
  const live: RecordingLive = {
    state: 'connected',
    pending: 0,
    sent: [],
    reloads: 0,
    send(operation) {
      live.sent.push(operation);
      version += 1;
      deliver({ type: 'ack', data: { sheet_id: 's-1', operation_id: operation.id, version, timestamp: new Date().toISOString() } });
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    requestReload() {
      live.reloads += 1;
    },
    // mfe-git never pauses live sync (AI Editing Mode is the chat's); the shell's relay is tested in contracts.
    pause() {},
    resume() {},
    hold() {
      held = [];
    },
    release() {
      const frames = held ?? [];
      held = null;
      frames.forEach(deliver);
    },
  };
  return live;
}
