import type { GridData } from '@tessera/contracts';
import type { ToFormulaWorker } from '../grid/formulas/formula-messages.js';
import { FormulaValues } from '../grid/formulas/formula-values.js';
import { recordingFormulaWorker } from './in-page-formula-worker.js';

/** A FormulaValues over `data` on in-page workers, started, with what it posted, how often it told of a change and how many workers it started. */
export function startedFormulaValues(data: GridData) {
  const posted: ToFormulaWorker[] = [];
  let changes = 0;
  let workers = 0;
  const values = new FormulaValues(
    () => {
      workers++;
      return recordingFormulaWorker(posted);
    },
    data,
    () => changes++,
  );
  values.start();
  return { values, posted, changes: () => changes, workers: () => workers };
}

/** Until the values are computed (or the engine is off). */
export async function formulasSettled(values: FormulaValues): Promise<void> {
  for (let i = 0; i < 200 && values.state === 'computing'; i++) await new Promise((r) => setTimeout(r, 5));
}
