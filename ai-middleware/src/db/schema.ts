import type { ColumnType, Generated } from 'kysely';

/** One AI chat session of a user (spec 02 §3 Chat session); later issues fill it. */
export interface AiSessionsTable {
  session_id: string;
  /** The token's subject: sessions belong to the signed-in user (DESIGN.md § AI). */
  user_id: string;
  session_name: string;
  created_at: Generated<Date>;
  last_active: Generated<Date>;
  context_summary: string | null;
  // jsonb: read as a parsed array, written as JSON text.
  tags: ColumnType<string[], string | undefined, string>;
}

export interface AiDatabase {
  ai_sessions: AiSessionsTable;
}
