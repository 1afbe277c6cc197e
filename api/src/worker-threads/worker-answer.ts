import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * Work that holds a whole sheet off the api's event loop (a large sort, an export's formula values):
 * `script` run in a worker thread for its one answer (its first message), the worker ended then.
 * Rejected when it throws, exits first, or takes over `limitMs` (it is ended: the machine is too
 * busy for it). Each caller's work goes ONE AT A TIME per `lane` (a process-wide queue): each
 * holds a whole sheet in a worker's heap.
 */
export class WorkerLane {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly what: string) {}

  run<T>(script: string, options: WorkerOptions, limitMs: number): Promise<T> {
    const turn = this.queue.then(() => answerOf<T>(script, options, limitMs, this.what));
    this.queue = turn.catch(() => undefined);
    return turn;
  }
}

function answerOf<T>(script: string, options: WorkerOptions, limitMs: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const worker = new Worker(script, options);
    const timer = setTimeout(() => {
      void worker.terminate();
      reject(new Error(`${what} took over ${limitMs} ms`));
    }, limitMs);
    worker.once('message', (answer: T) => {
      clearTimeout(timer);
      resolve(answer);
      void worker.terminate();
    });
    worker.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    worker.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} worker exited with code ${code}`));
    });
  });
}
