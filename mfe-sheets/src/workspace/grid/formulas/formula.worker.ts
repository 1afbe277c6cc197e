// The formula worker's entry (built on its own by webpack.config.js's WorkerEntryPlugin into
// formula.worker.js, started by start-formula-worker.ts): HyperFormula off the main thread.
// It imports nothing the page shares through Module Federation: a worker has no federation runtime.
import { HyperFormula } from 'hyperformula';
import type { ToFormulaWorker } from './formula-messages.js';
import { formulaWorkerCore } from './formula-worker-core.js';

// The worker's global scope (the project's TypeScript lib is the DOM's, not WebWorker's).
const scope = self as unknown as { postMessage(message: unknown): void; onmessage: ((event: MessageEvent<ToFormulaWorker>) => void) | null };
const core = formulaWorkerCore(HyperFormula, (message) => scope.postMessage(message));
scope.onmessage = (event) => core.handle(event.data);
