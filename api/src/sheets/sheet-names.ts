import { uniqueGroupName, uniqueSheetName } from '@tessera/contracts';
import { sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema.js';

/** Any fixed number: names the lock that serialises choosing unique names. */
const NAMES_LOCK = 3_141_592_003;

/** Held to the end of the transaction, so two creations cannot pick the same free name. */
export async function lockNames(trx: Transaction<Database>): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(${NAMES_LOCK}::bigint)`.execute(trx);
}

/** `base`, or `base 1`, `base 2`...: sheet names are unique in the workspace. */
export async function freeSheetName(trx: Transaction<Database>, base: string, exceptId?: string): Promise<string> {
  // What is in the trash gives its name up; a restore picks a free one again.
  let query = trx.selectFrom('sheets').select('name').where(sql<boolean>`starts_with(name, ${base})`).where('trashed_in', 'is', null);
  if (exceptId) query = query.where('id', '!=', exceptId);
  const taken = new Set((await query.execute()).map((r) => r.name));
  return uniqueSheetName(base, taken);
}

/** `base`, or `base (1)`, `base (2)`...: group names are unique among siblings. */
export async function freeGroupName(
  trx: Transaction<Database>,
  base: string,
  parentId: string | null,
  exceptId?: string,
): Promise<string> {
  let query = trx
    .selectFrom('groups')
    .select('name')
    .where(sql<boolean>`starts_with(name, ${base})`)
    .where(sql<boolean>`parent_id IS NOT DISTINCT FROM ${parentId}::uuid`)
    .where('trashed_in', 'is', null);
  if (exceptId) query = query.where('id', '!=', exceptId);
  const taken = new Set((await query.execute()).map((r) => r.name));
  return uniqueGroupName(base, taken);
}
