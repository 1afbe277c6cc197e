import type { LiveServerFrame } from '../live/live.schema.js';
import { isStructureType, type StructureStep, transformOperationThrough, transformStructure } from '../live/transform-position.js';
import type { LiveOperationInput, ShellLive } from '../shell/shell-context.js';

/** How a result's operations ended: all acknowledged, or the server refused one (its message). */
export type SentOperations = { refused: null } | { refused: string };

/**
 * Sends a result's operations on the open sheet's socket and resolves once the server settled
 * them all: acknowledged, or one refused by an error frame (then at once, with its message).
 * The shell tells every subscriber of this tab an acknowledged operation, so the Workspace
 * shows the result without a reload.
 *
 * `baseVersion`: the sheet version the operations were computed on (the grid read with
 * shell.sheet.getData() is at shell.sheet.version). Each operation then goes with it as
 * `base_version`, and the server moves it through the rows and columns inserted or removed
 * since, as it does the grid's own edits (DESIGN.md § Live collaboration): a row someone
 * inserts meanwhile no longer shifts the result onto the wrong rows. The operations after one
 * of the result's own structure operations are held back until that one is acknowledged (the
 * server must not move them through the change they were made on), then sent on its version,
 * first moved through the others' structure operations committed before it.
 */
export function sendOperations(
  live: Pick<ShellLive, 'send' | 'subscribe'>,
  ops: LiveOperationInput[],
  baseVersion: number | null = null,
): Promise<SentOperations> {
  if (ops.length === 0) return Promise.resolve({ refused: null });
  const waiting = new Set(ops.map((op) => op.id));
  const ids = new Set(waiting);
  let queue = ops;
  let base = baseVersion;
  /** The own structure operation in flight (as sent) and what it waits for. */
  let inFlight: { id: string; step: StructureStep } | null = null;
  /** Others' structure operations seen, by version. */
  const others = new Map<number, StructureStep>();
  const sendReady = () => {
    while (queue.length > 0 && inFlight === null) {
      const [op, ...rest] = queue;
      queue = rest;
      live.send(base === null ? op : { ...op, base_version: base });
      if (base !== null && isStructureType(op.type)) {
        const { index, count } = op as { index: number; count: number };
        inFlight = { id: op.id, step: { type: op.type, index, count } };
      }
    }
  };
  /** The own structure operation was committed at `version`: the held ones move to that version. */
  const rebase = (version: number) => {
    const from = base!;
    let own = inFlight!.step;
    // The others' structure operations the server committed before ours, as they apply after ours.
    const through: StructureStep[] = [];
    for (const v of [...others.keys()].sort((a, b) => a - b)) {
      if (v <= from || v >= version) continue;
      const theirs = others.get(v)!;
      const moved = transformStructure(theirs, own, 'before');
      if (moved) through.push(moved);
      own = transformStructure(own, theirs, 'after') ?? own;
    }
    const kept: LiveOperationInput[] = [];
    for (const op of queue) {
      const moved = transformOperationThrough(op, through, 'after').operation;
      if (moved) kept.push(moved);
      // Its cells' rows were removed by someone else first: nothing of it is sent or waited for.
      else waiting.delete(op.id);
    }
    queue = kept;
    base = version;
    inFlight = null;
  };
  return new Promise((resolve) => {
    const unsubscribe = live.subscribe((frame: LiveServerFrame) => {
      if (frame.type === 'error' && frame.data.operation_id && waiting.has(frame.data.operation_id)) {
        unsubscribe();
        resolve({ refused: frame.data.message });
        return;
      }
      if (frame.type === 'operation' && !ids.has(frame.data.operation.id) && isStructureType(frame.data.operation.type)) {
        const { type, index, count } = frame.data.operation as StructureStep;
        others.set(frame.data.version, { type, index, count });
      }
      if (frame.type !== 'ack' || !waiting.delete(frame.data.operation_id)) return;
      if (inFlight?.id === frame.data.operation_id) {
        rebase(frame.data.version);
        sendReady();
      }
      if (waiting.size > 0) return;
      unsubscribe();
      resolve({ refused: null });
    });
    sendReady();
  });
}
