import type { ColumnType, Generated } from 'kysely';

/** One AI chat session of a user (spec 02 §3 Chat session). */
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

/** One message of a session (spec 02 §3 Chat message), in the order written (seq). */
export interface AiMessagesTable {
  id: string;
  session_id: string;
  role: 'user' | 'assistant' | 'system';
  content: string;
  // jsonb: read parsed, written as JSON text.
  metadata: ColumnType<Record<string, unknown>, string | undefined, string>;
  created_at: Generated<Date>;
  seq: ColumnType<string, never, never>;
}

/** The file content a user committed on a UTC day (`YYYY-MM-DD`), for GIT_DAILY_MAX_MB. */
export interface AiGitUsageTable {
  user_id: string;
  day: string;
  bytes: ColumnType<string, number, number>;
}

export interface AiDatabase {
  ai_sessions: AiSessionsTable;
  ai_messages: AiMessagesTable;
  ai_git_usage: AiGitUsageTable;
}
