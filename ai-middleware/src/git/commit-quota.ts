import { ERROR_CODES, type GitCommitRequest, QUOTA_TEXTS } from '@tessera/contracts';
import { type Kysely, sql } from 'kysely';
import type { QuotasConfig } from '../config.js';
import type { AiDatabase } from '../db/schema.js';
import { GitRequestError } from './git-errors.js';

/** The file content a commit request adds: the UTF-8 bytes of its upserts (a delete adds none). */
export function commitContentBytes(changes: GitCommitRequest['changes']): number {
  let bytes = 0;
  for (const change of changes) if (change.action === 'upsert') bytes += Buffer.byteLength(change.content, 'utf8');
  return bytes;
}

/**
 * Git bytes per commit (413) and per user per UTC day (429), issue 17 §1. The day's total is kept
 * in the database (ai_git_usage), so a restart or a second instance does not reset it; a commit
 * reserves its bytes atomically before it is written and gets them back if it is refused (409).
 */
export class CommitQuota {
  constructor(
    private readonly db: Kysely<AiDatabase>,
    private readonly limits: Pick<QuotasConfig, 'gitCommitMaxBytes' | 'gitDailyMaxBytes'>,
  ) {}

  /** Throws the 413 or the 429; else the bytes are counted for today and the function returned gives them back. */
  async reserve(userId: string, bytes: number): Promise<() => Promise<void>> {
    const { gitCommitMaxBytes, gitDailyMaxBytes } = this.limits;
    if (bytes > gitCommitMaxBytes) throw new GitRequestError(413, ERROR_CODES.payloadTooLarge, QUOTA_TEXTS.gitCommit(bytes, gitCommitMaxBytes));
    if (bytes === 0) return async () => {};
    const day = new Date().toISOString().slice(0, 10);
    // One statement: two commits at once cannot both take the day's last bytes.
    const { rows } = await sql<{ bytes: string }>`
      insert into ai_git_usage (user_id, day, bytes) values (${userId}, ${day}, ${bytes})
      on conflict (user_id, day) do update set bytes = ai_git_usage.bytes + excluded.bytes
      where ai_git_usage.bytes + excluded.bytes <= ${gitDailyMaxBytes}
      returning bytes`.execute(this.db);
    if (!rows.length) throw new GitRequestError(429, ERROR_CODES.tooManyRequests, QUOTA_TEXTS.gitDaily(gitDailyMaxBytes));
    return async () => {
      await sql`update ai_git_usage set bytes = greatest(0, bytes - ${bytes}) where user_id = ${userId} and day = ${day}`.execute(this.db);
    };
  }
}
