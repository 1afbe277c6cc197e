import type { LiveOperationInput } from '../shell/shell-context.js';
import type { LiveServerFrame } from './live.schema.js';

type Listener = (frame: LiveServerFrame) => void;

/**
 * What a shell puts between the open sheet's socket and the remotes that subscribe to it
 * (ShellContext.live), so that the shell, the dev shell and test shells behave alike:
 *
 * - The server acks an operation to the socket that sent it and broadcasts it to the others
 *   only. In one tab the Workspace, the chat panel and the code editor share that socket, so an
 *   acknowledged operation is also told to every subscriber as an `operation` frame: the
 *   Workspace shows what the chat wrote (its own operations it has settled by the ack already).
 * - While paused (AI Editing Mode, spec 02 §4) frames are kept, in order, and told on resume:
 *   remote operations are buffered, not lost.
 */
export class LiveFrameRelay {
  readonly #listeners = new Set<Listener>();
  readonly #sent = new Map<string, LiveOperationInput>();
  #buffer: LiveServerFrame[] | null = null;

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
  }

  #tell(frames: LiveServerFrame[]): void {
    for (const frame of frames) for (const listener of [...this.#listeners]) listener(frame);
  }

  #settle(frame: LiveServerFrame, sheetId: string): LiveServerFrame | null {
    if (frame.type === 'error' && frame.data.operation_id) this.#sent.delete(frame.data.operation_id);
    if (frame.type === 'operation') this.#sent.delete(frame.data.operation.id);
    if (frame.type !== 'ack') return null;
    const operation = this.#sent.get(frame.data.operation_id);
    if (!operation) return null;
    this.#sent.delete(frame.data.operation_id);
    return {
      type: 'operation',
      data: { sheet_id: sheetId, version: frame.data.version, operation: { ...operation, user_id: this.userId, timestamp: frame.data.timestamp } },
    };
  }
}
