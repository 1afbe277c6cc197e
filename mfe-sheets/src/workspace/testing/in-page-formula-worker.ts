import { HyperFormula } from 'hyperformula';
import type { FromFormulaWorker, ToFormulaWorker } from '../grid/formulas/formula-messages.js';
import { formulaWorkerCore } from '../grid/formulas/formula-worker-core.js';
import type { FormulaPort } from '../grid/formulas/start-formula-worker.js';

/**
 * The formula worker for tests (jsdom has no Worker): the worker's own message handling, in the
 * page, with each message delivered in a later task and structured-cloned, as a worker's are.
 */
export function inPageFormulaWorker(): FormulaPort {
  let running = true;
  const port: FormulaPort = {
    post(message: ToFormulaWorker) {
      const copy = JSON.parse(JSON.stringify(message)) as typeof message; // jsdom has no structuredClone; the messages are JSON
      setTimeout(() => running && core.handle(copy), 0);
    },
    onMessage: null,
    terminate() {
      running = false;
    },
  };
  const core = formulaWorkerCore(HyperFormula, (message: FromFormulaWorker) => {
    const copy = JSON.parse(JSON.stringify(message)) as typeof message; // jsdom has no structuredClone; the messages are JSON
    setTimeout(() => running && port.onMessage?.(copy), 0);
  });
  return port;
}

/** inPageFormulaWorker that also records each message posted to it in `posted`. */
export function recordingFormulaWorker(posted: ToFormulaWorker[]): FormulaPort {
  const port = inPageFormulaWorker();
  const post = port.post.bind(port);
  return {
    post: (message) => {
      posted.push(message);
      post(message);
    },
    get onMessage() {
      return port.onMessage;
    },
    set onMessage(handler) {
      port.onMessage = handler;
    },
    terminate: () => port.terminate(),
  };
}
