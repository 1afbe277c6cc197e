import type { CodeRunFigure } from '@tessera/contracts';
import { type Kysely, type Transaction, sql } from 'kysely';
import type { AiDatabase } from '../db/schema.js';

/** What a figure takes where it is stored: its base64 text. */
const bytesOf = (figure: CodeRunFigure): number => figure.data.length;

/**
 * Which of an answer's figures are stored: the first ones, in order, while they fit the user's
 * budget on their own (AI_FIGURES_PER_USER_MB). The rest are counted as not kept.
 */
export function figuresToKeep(figures: readonly CodeRunFigure[], budgetBytes: number): { kept: CodeRunFigure[]; bytes: number } {
  const kept: CodeRunFigure[] = [];
  let bytes = 0;
  for (const figure of figures) {
    if (bytes + bytesOf(figure) > budgetBytes) break;
    kept.push(figure);
    bytes += bytesOf(figure);
  }
  return { kept, bytes };
}

/**
 * Makes room for `incomingBytes` of new figures within the user's budget: the figures of the user's
 * oldest stored answers are dropped, one answer at a time, until they fit. Those answers keep their
 * text and count what they lost (figures_not_kept), so a reloaded chat says so instead of showing
 * nothing. Runs in the append's transaction.
 */
export async function makeRoomForFigures(
  trx: Transaction<AiDatabase> | Kysely<AiDatabase>,
  userId: string,
  incomingBytes: number,
  budgetBytes: number,
): Promise<void> {
  const stored = await sql<{ id: string; bytes: number; figures: number }>`
    select m.id,
           coalesce((select sum(length(f->>'data')) from jsonb_array_elements(m.metadata->'figures') f), 0)::int as bytes,
           jsonb_array_length(m.metadata->'figures') as figures
      from ai_messages m join ai_sessions s on s.session_id = m.session_id
     where s.user_id = ${userId} and jsonb_typeof(m.metadata->'figures') = 'array'
     order by m.created_at, m.seq`.execute(trx);
  let total = incomingBytes;
  for (const row of stored.rows) total += Number(row.bytes);
  for (const row of stored.rows) {
    if (total <= budgetBytes) return;
    await sql`
      update ai_messages
         set metadata = (metadata - 'figures')
             || jsonb_build_object('figures_not_kept', coalesce((metadata->>'figures_not_kept')::int, 0) + ${Number(row.figures)}::int)
       where id = ${row.id}`.execute(trx);
    total -= Number(row.bytes);
  }
}
