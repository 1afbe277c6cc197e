import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.js';

export interface ItemRef {
  type: 'sheet' | 'group';
  id: string;
}

/** The creator of an item owns it: kept as a grant, so the sharing dialog shows it and it outlives a role change. */
export async function grantCreator(trx: Kysely<Database> | Transaction<Database>, item: ItemRef, userId: string | null): Promise<void> {
  if (userId === null) return;
  await trx
    .insertInto('item_grants')
    .values({ item_id: item.id, item_type: item.type, user_id: userId, level: 'owner' })
    .onConflict((oc) => oc.doNothing())
    .execute();
}
