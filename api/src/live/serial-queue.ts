/**
 * Runs tasks one after another per key (a sheet): the live socket's operations on one sheet
 * are applied in the order they arrived, while other sheets proceed in parallel.
 */
export class SerialQueue {
  readonly #tails = new Map<string, Promise<void>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    const result = previous.then(task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.#tails.set(key, tail);
    // Forget the key once its last task is done, so idle sheets cost nothing.
    void tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
    return result;
  }
}
