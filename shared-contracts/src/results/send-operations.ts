import type { LiveServerFrame } from '../live/live.schema.js';
import type { LiveOperationInput, ShellLive } from '../shell/shell-context.js';

/** How a result's operations ended: all acknowledged, or the server refused one (its message). */
export type SentOperations = { refused: null } | { refused: string };

/**
 * Sends a result's operations on the open sheet's socket and resolves once the server settled
 * them all: acknowledged, or one refused by an error frame (then at once, with its message).
 * The shell tells every subscriber of this tab an acknowledged operation, so the Workspace
 * shows the result without a reload.
 */
export function sendOperations(live: Pick<ShellLive, 'send' | 'subscribe'>, ops: LiveOperationInput[]): Promise<SentOperations> {
  if (ops.length === 0) return Promise.resolve({ refused: null });
  const waiting = new Set(ops.map((op) => op.id));
  return new Promise((resolve) => {
    const unsubscribe = live.subscribe((frame: LiveServerFrame) => {
      if (frame.type === 'error' && frame.data.operation_id && waiting.has(frame.data.operation_id)) {
        unsubscribe();
        resolve({ refused: frame.data.message });
        return;
      }
      if (frame.type !== 'ack' || !waiting.delete(frame.data.operation_id) || waiting.size > 0) return;
      unsubscribe();
      resolve({ refused: null });
    });
    for (const op of ops) live.send(op);
  });
}
