import crypto from 'node:crypto';
import { type CellValue, LiveClientFrameSchema } from '@tessera/contracts';
import type { SheetsService } from '../sheets/sheets.service.js';
import { cellChangesOf } from './live-operation.js';

/** The api's live warm-up at start, in ms (LIVE_WARMUP_MS): about 250 rounds on this 2-core machine, at ~40% of a core. */
export const LIVE_WARMUP_MS_DEFAULT = 1000;
/** Group sizes one round rehearses: a quiet sheet's, a sheet at ~80 ops/s, one at ~1,000 ops/s. */
const ROUND = [1, 4, 30];
/** The most rounds whatever the budget (a fast machine is warm well before it). */
const MAX_ROUNDS = 400;
const ROWS = 100;
const COLUMNS = 26;

export interface WarmUp {
  rounds: number;
  /** Versions written (and rolled back) in all. */
  versions: number;
  ms: number;
}

/**
 * Warms the live path at the api's start (LIVE_WARMUP_MS): until `budgetMs` have passed, the work of
 * live operations — their frames parsed and checked as LiveHub.handleFrame does, then committed in groups
 * of the sizes real sheets make (SheetsService.rehearseCellGroups: on a scratch sheet in a
 * transaction that is rolled back, so no user ever sees it). A fresh api otherwise runs its first live groups in V8's baseline tiers (JS and
 * PGlite's WebAssembly) with nothing prepared: 300-500 ms p99 for the first seconds at 1,000 ops/s.
 * Runs in the background after the api listens, a few ms at a time; requests interleave.
 */
export async function warmLivePath(sheets: SheetsService, budgetMs: number): Promise<WarmUp> {
  const start = performance.now();
  const sheetId = crypto.randomUUID();
  let rounds = 0;
  let versions = 0;
  while (rounds < MAX_ROUNDS && performance.now() - start < budgetMs) {
    // One round per transaction: the rehearsal holds PGlite's one connection a few ms, then lets requests in.
    const groups = ROUND.map((size) => Array.from({ length: size }, () => cellsOf(frameText(sheetId))));
    versions += await sheets.rehearseCellGroups(groups);
    rounds++;
    // Requests that came meanwhile go first.
    await new Promise((resolve) => setImmediate(resolve));
  }
  return { rounds, versions, ms: performance.now() - start };
}

/** A client's operation frame, as the live clients send one. */
function frameText(sheetId: string): string {
  const row = Math.floor(Math.random() * ROWS);
  const column = Math.floor(Math.random() * COLUMNS);
  const value = `w${Math.floor(Math.random() * 1e6)}`;
  return JSON.stringify({ type: 'operation', sheet_id: sheetId, operation: { id: crypto.randomUUID(), type: 'cell_update', position: { row, column }, value } });
}

/** The frame parsed and checked as LiveHub.handleFrame does; its cells. */
function cellsOf(text: string): { row: number; col: number; value: CellValue }[] {
  const frame = LiveClientFrameSchema.parse(JSON.parse(text));
  return (frame.type === 'operation' && cellChangesOf(frame.operation)) || [];
}
