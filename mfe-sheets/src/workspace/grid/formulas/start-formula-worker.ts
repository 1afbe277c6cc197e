import type { FromFormulaWorker, ToFormulaWorker } from './formula-messages.js';

/** This remote's own base URL at run time (webpack's publicPath 'auto'): another origin than the page's. */
declare const __webpack_public_path__: string;

/** The worker's file, built beside the remote's chunks (webpack.config.js). */
export const FORMULA_WORKER_FILE = 'formula.worker.js';

/** The grid's side of the formula worker (a test stands an in-page one in for it: jsdom has no Worker). */
export interface FormulaPort {
  post(message: ToFormulaWorker): void;
  /** A message from the worker, or `null` when the worker itself failed (its script did not load or threw). */
  onMessage: ((message: FromFormulaWorker | null) => void) | null;
  terminate(): void;
}

/**
 * The formula worker, started from a blob (a page may not start a worker from another origin,
 * and this remote is served from its own) that loads the real file with importScripts, as
 * mfe-git starts Monaco's workers (src/editor/monaco-environment.ts): the shell's
 * Content-Security-Policy allows blob: workers, and its script-src the remote's origin.
 */
export function startFormulaWorker(): FormulaPort {
  const url = new URL(FORMULA_WORKER_FILE, new URL(__webpack_public_path__, window.location.href)).toString();
  const blobUrl = URL.createObjectURL(new Blob([`importScripts(${JSON.stringify(url)});`], { type: 'application/javascript' }));
  const worker = new Worker(blobUrl, { name: 'formulas' });
  // The worker has read the blob once it runs; the URL is not needed after that.
  setTimeout(() => URL.revokeObjectURL(blobUrl), 10_000);
  const port: FormulaPort = {
    post: (message) => worker.postMessage(message),
    onMessage: null,
    terminate: () => worker.terminate(),
  };
  worker.onmessage = (event: MessageEvent<FromFormulaWorker>) => port.onMessage?.(event.data);
  worker.onerror = (event) => {
    console.error('[sheets] the formula worker failed; formulas show as text', event.message);
    port.onMessage?.(null);
  };
  return port;
}
