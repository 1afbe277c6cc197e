import type { LiveOperationInput } from '../shell/shell-context.js';
import type { LiveServerFrame } from './live.schema.js';
import { isStructureType, type MoveStep, transformOperationThrough } from './transform-position.js';

type Listener = (frame: LiveServerFrame) => void;

/** Versions whose structure operations the relay remembers for moving echoes (a result is sent within a few). */
const STEP_LOG = 1000;

/**
 * What a shell puts between the open sheet's socket and the remotes that subscribe to it
 * (ShellContext.live), so that the shell, the dev shell and test shells behave alike:
 *
 * - The server acks an operation to the socket that sent it and broadcasts it to the others
 *   only. In one tab the Workspace, the chat panel and the code editor share that socket, so an
 *   acknowledged operation is also told to every subscriber as an `operation` frame: the
 *   Workspace shows what the chat wrote (its own operations it has settled by the ack already).
 *   An operation sent with `base_version` (an AI or code result) is echoed where the server put
 *   it: moved through the rows and columns inserted or removed after its base, which the relay
 *   saw go by (a short log of the structure operations of the last versions).
 * - While paused (AI Editing Mode, spec 02 §4) frames are kept, in order, and told on resume:
 *   remote operations are buffered, not lost.
 */
export class LiveFrameRelay {
  readonly #listeners = new Set<Listener>();
  readonly #sent = new Map<string, LiveOperationInput>();
  #buffer: LiveServerFrame[] | null = null;
  /** The structure operations of the versions seen, by version (as applied); versions with cells only map to null. */
  readonly #versions = new Map<number, MoveStep | null>();

  constructor(private readonly userId: string) {}

  get paused(): boolean {
    return this.#buffer !== null;
  }

  subscribe(listener: Listener): () => void {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  /** A remote sent this operation on the sheet's socket. */
  sent(operation: LiveOperationInput): void {
    this.#sent.set(operation.id, operation);
  }

  /** A frame of the sheet `sheetId` arrived: told to the subscribers (with the echo of an ack), or kept while paused. */
  receive(frame: LiveServerFrame, sheetId: string): void {
    const frames = [frame];
    const echo = this.#settle(frame, sheetId);
    if (echo) frames.push(echo);
    if (this.#buffer) this.#buffer.push(...frames);
    else this.#tell(frames);
  }

  pause(): void {
    this.#buffer ??= [];
  }

  /** Tells what arrived while paused, in order, then goes on live. */
  resume(): void {
    const kept = this.#buffer;
    this.#buffer = null;
    if (kept) this.#tell(kept);
  }

  /** Another sheet: what was kept for the previous one is dropped (the Workspace loads the new one) and the pause ends. */
  reset(): void {
    this.#buffer = null;
    this.#sent.clear();
    this.#versions.clear();
  }

  /** Notes what version `version` did (a structure step, or null for cells), keeping the last STEP_LOG versions. */
  #record(version: number, operation: { type: string; index?: number; count?: number; order?: readonly number[] }): void {
    // A sort without its order (a sheet past SORT_ORDER_SENT_MAX_ROWS rows): the versions across it are not known.
    if (operation.type === 'rows_sort' && !operation.order) {
      this.#versions.delete(version);
      return;
    }
    const step: MoveStep | null = isStructureType(operation.type)
      ? { type: operation.type, index: operation.index!, count: operation.count! }
      : operation.type === 'rows_sort' && operation.order
        ? { type: 'rows_sort', order: operation.order }
        : null;
    this.#versions.set(version, step);
    if (this.#versions.size > STEP_LOG) this.#versions.delete(this.#versions.keys().next().value!);
  }

  /**
   * The structure steps after `base` up to `upTo` (exclusive), oldest first, or null when a
   * version in between was not seen (then the echo goes as sent, as before base versions).
   */
  #stepsBetween(base: number, upTo: number): MoveStep[] | null {
    const steps: MoveStep[] = [];
    for (let v = base + 1; v < upTo; v++) {
      if (!this.#versions.has(v)) return null;
      const step = this.#versions.get(v);
      if (step) steps.push(step);
    }
    return steps;
  }

  #tell(frames: LiveServerFrame[]): void {
    for (const frame of frames) for (const listener of [...this.#listeners]) listener(frame);
  }

  #settle(frame: LiveServerFrame, sheetId: string): LiveServerFrame | null {
    if (frame.type === 'error' && frame.data.operation_id) this.#sent.delete(frame.data.operation_id);
    if (frame.type === 'operation') {
      this.#sent.delete(frame.data.operation.id);
      this.#record(frame.data.version, frame.data.operation);
    }
    // A chart change moves no cell: a version an echo moves through without a step.
    if (frame.type === 'chart') this.#record(frame.data.version, { type: 'chart' });
    if (frame.type === 'sync') this.#versions.clear();
    if (frame.type !== 'ack') return null;
    const sent = this.#sent.get(frame.data.operation_id);
    if (!sent) return null;
    this.#sent.delete(frame.data.operation_id);
    const { base_version: base, ...rest } = sent;
    // A sort's order is known from its ack only (the server computed it).
    if (rest.type === 'rows_sort') {
      if (!frame.data.order) return null;
      const sorted = { ...rest, order: frame.data.order, user_id: this.userId, timestamp: frame.data.timestamp };
      this.#record(frame.data.version, sorted);
      return { type: 'operation', data: { sheet_id: sheetId, version: frame.data.version, operation: sorted } };
    }
    // A clear's undo names a version, not its block (the others' frame carries that): its sender settles it by the ack alone.
    if (rest.type === 'cells_clear_undo') return null;
    let operation: typeof rest | null = rest;
    const steps = base === undefined ? null : this.#stepsBetween(base, frame.data.version);
    if (steps) operation = transformOperationThrough(rest as typeof sent, steps, 'after').operation as typeof rest | null;
    // Nothing of it was left to apply (its rows were removed first): the server wrote nothing either.
    if (operation === null) return null;
    this.#record(frame.data.version, operation);
    return {
      type: 'operation',
      data: { sheet_id: sheetId, version: frame.data.version, operation: { ...operation, user_id: this.userId, timestamp: frame.data.timestamp } },
    };
  }
}
