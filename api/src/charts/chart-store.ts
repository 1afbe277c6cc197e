import { type ChartDefinition, chartsOf } from '@tessera/contracts';
import { type Kysely, sql } from 'kysely';

type AnyDb = Kysely<any>;

/** The charts a sheet row holds in its metadata (extra), parsed; what does not parse is left out. */
export const storedCharts = (extra: Record<string, unknown> | null | undefined): ChartDefinition[] => chartsOf(extra);

/** Records the charts of `version` (called in the transaction that made the version, only when they changed). */
export async function recordCharts(db: AnyDb, sheetId: string, version: number, charts: readonly ChartDefinition[]): Promise<void> {
  await sql`INSERT INTO sheet_version_charts (sheet_id, version, charts) VALUES (${sheetId}::uuid, ${version}::int, ${JSON.stringify(charts)}::jsonb)
    ON CONFLICT (sheet_id, version) DO UPDATE SET charts = EXCLUDED.charts`.execute(db);
}

/** The charts of a sheet as of `version`: the latest recorded at or before it, else none. */
export async function chartsAt(db: AnyDb, sheetId: string, version: number): Promise<ChartDefinition[]> {
  const { rows } = await sql<{ charts: unknown }>`SELECT charts FROM sheet_version_charts
    WHERE sheet_id = ${sheetId}::uuid AND version <= ${version}::int ORDER BY version DESC LIMIT 1`.execute(db);
  return chartsOf({ charts: rows[0]?.charts });
}

/** Same charts (by content), so a version that did not change them records nothing. */
export const sameCharts = (a: readonly ChartDefinition[], b: readonly ChartDefinition[]) => JSON.stringify(a) === JSON.stringify(b);
