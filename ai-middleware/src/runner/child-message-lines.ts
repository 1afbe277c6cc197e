import { type ChildMessage, ChildMessageSchema } from './child-message.schema.js';

/** A child's stdout past this in all (its result line included) is not read: the job fails. */
export const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

/**
 * A runner child's stdout (a Pyodide process, or a gVisor sandbox) read as lines: each line that is
 * one of the child's JSON messages goes to `onMessage`; any other line (user code writes there too)
 * is passed over. Past `maxBytes` in all nothing more is read and each chunk calls `onTooLarge`.
 * Takes text: the stream's utf8 decoding keeps characters split across chunks whole.
 */
export class ChildMessageLines {
  #parts: string[] = [];
  #bytes = 0;

  constructor(
    private readonly onMessage: (message: ChildMessage) => void,
    private readonly onTooLarge: () => void,
    private readonly maxBytes = MAX_MESSAGE_BYTES,
  ) {}

  push(chunk: string): void {
    this.#bytes += chunk.length;
    if (this.#bytes > this.maxBytes) {
      this.onTooLarge();
      return;
    }
    // Line ends looked for in the new chunk only: a result line can be many megabytes.
    let text = chunk;
    let end: number;
    while ((end = text.indexOf('\n')) >= 0) {
      this.#parts.push(text.slice(0, end));
      const line = this.#parts.join('');
      this.#parts = [];
      text = text.slice(end + 1);
      this.#line(line);
    }
    if (text) this.#parts.push(text);
  }

  #line(line: string): void {
    if (!line.startsWith('{')) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      return;
    }
    const message = ChildMessageSchema.safeParse(parsed);
    if (message.success) this.onMessage(message.data);
  }
}
