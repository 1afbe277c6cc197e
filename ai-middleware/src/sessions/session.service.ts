import { randomUUID } from 'node:crypto';
import {
  AI_CONVERSATION_CONTEXT,
  CHAT_MAX_MESSAGES,
  CHAT_MESSAGE_MAX_LENGTH,
  CHAT_SESSIONS_MAX,
  type ChatMessageRecord,
  type ChatRole,
  type ChatSession,
  type CodeRunFigure,
  QUOTA_TEXTS,
  SESSION_TEXTS,
} from '@tessera/contracts';
import { type Kysely, sql } from 'kysely';
import type { AiDatabase } from '../db/schema.js';
import { QUOTAS_DEFAULTS, type QuotasConfig } from '../config.js';
import { figuresToKeep, makeRoomForFigures } from './stored-figures.js';

/** A session that does not exist for this user (another user's session is "not found" too). */
export class SessionNotFoundError extends Error {
  override name = 'SessionNotFoundError';
  constructor() {
    super(SESSION_TEXTS.notFound);
  }
}

/** A quota on what a user stores here is reached (429, the text names the limit); nothing was stored. */
export class SessionQuotaError extends Error {
  override name = 'SessionQuotaError';
}

export interface NewMessage {
  role: ChatRole;
  content: string;
  metadata?: Record<string, unknown>;
  /** An answer's figures: stored in its metadata within the user's figure budget (AI_FIGURES_PER_USER_MB). */
  figures?: CodeRunFigure[];
}

const CUT_MARKER = '\n[cut: message longer than 200,000 characters]';

/** What a turn was about besides its messages: the sheet it worked on. */
export interface SessionTopic {
  sheet?: string | null;
}

const SUMMARY_MAX = 160;
const TAGS_MAX = 8;
const TAG_MAX_LENGTH = 40;
/** The message metadata's mode, as the chat panel names it. */
const MODE_TAGS: Record<string, string> = { 'agent-direct': 'Direct Exec', 'agent-ai': 'AI Powered' };
/** The chat routes (src/vertex) store no mode: they are the Chat mode. */
const CHAT_ROUTES = new Set(['chat', 'stream', 'enhanced-conversation']);

/** A session's summary: the first line of the first thing the user asked in it, shortened. */
export function sessionSummary(messages: NewMessage[]): string | null {
  const asked = messages.find((m) => m.role === 'user')?.content.replace(/```[\s\S]*?```/g, ' code ').trim();
  if (!asked) return null;
  const line = asked.split('\n').find((l) => l.trim())?.trim() ?? '';
  return line.length > SUMMARY_MAX ? `${line.slice(0, SUMMARY_MAX - 1)}…` : line || null;
}

/** The session's tags and the new turn's (its modes, its sheet), oldest first, each once, at most eight. */
export function sessionTags(existing: string[], messages: NewMessage[], about: SessionTopic): string[] {
  const next = [...existing];
  const add = (tag: string | null | undefined) => {
    const t = tag?.trim().slice(0, TAG_MAX_LENGTH);
    if (t && !next.includes(t) && next.length < TAGS_MAX) next.push(t);
  };
  for (const m of messages) {
    const mode = m.metadata?.mode;
    const route = m.metadata?.route;
    add(typeof mode === 'string' ? MODE_TAGS[mode] : typeof route === 'string' && CHAT_ROUTES.has(route) ? 'Chat' : null);
  }
  add(about.sheet);
  return next;
}

/**
 * AI chat sessions and their messages (spec 02 §3, §4 Sessions), always scoped to one user
 * (the token's subject). The hybrid and the chat routes append messages through it and read
 * the last ten for the model's context.
 */
export class SessionService {
  constructor(
    private readonly db: Kysely<AiDatabase>,
    /** AI_SESSIONS_PER_USER, AI_MESSAGES_PER_SESSION and AI_FIGURES_PER_USER_MB. */
    private readonly quotas: Pick<QuotasConfig, 'sessionsPerUser' | 'messagesPerSession' | 'figuresPerUserBytes'> = QUOTAS_DEFAULTS,
  ) {}

  /** The user's sessions, most recently active first, at most CHAT_SESSIONS_MAX (older ones stay stored). */
  async list(userId: string): Promise<ChatSession[]> {
    const rows = await this.sessionsWithCounts()
      .where('s.user_id', '=', userId)
      .orderBy('s.last_active', 'desc')
      .orderBy('s.created_at', 'desc')
      .limit(CHAT_SESSIONS_MAX)
      .execute();
    return rows.map(toSession);
  }

  /** Creates a session; it is the most recently active, so it comes first in the list. */
  async create(userId: string, input: { session_name: string; tags?: string[]; context_summary?: string }): Promise<ChatSession> {
    const sessionId = randomUUID();
    const max = this.quotas.sessionsPerUser;
    await this.db.transaction().execute(async (trx) => {
      // One user's creates queue on this lock, so two at once cannot both take the last place.
      await sql`select pg_advisory_xact_lock(hashtext(${`ai_sessions:${userId}`}))`.execute(trx);
      const { n } = await trx
        .selectFrom('ai_sessions')
        .select(sql<string>`count(*)`.as('n'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow();
      if (Number(n) >= max) throw new SessionQuotaError(QUOTA_TEXTS.sessions(max));
      await trx
      .insertInto('ai_sessions')
      .values({
        session_id: sessionId,
        user_id: userId,
        session_name: input.session_name,
        context_summary: input.context_summary ?? null,
        tags: JSON.stringify(input.tags ?? []),
        last_active: sql<Date>`clock_timestamp()`,
        created_at: sql<Date>`clock_timestamp()`,
      })
      .execute();
    });
    return this.get(userId, sessionId);
  }

  /** Throws SessionNotFoundError unless the session is the user's, SessionQuotaError when a turn (2 messages) would not fit in it. */
  async checkRoom(userId: string, sessionId: string, messages = 2): Promise<void> {
    const session = await this.get(userId, sessionId);
    const max = this.quotas.messagesPerSession;
    if (session.message_count + messages > max) throw new SessionQuotaError(QUOTA_TEXTS.messages(max));
  }

  /** Makes a session the current one: it becomes the most recently active. */
  async switchTo(userId: string, sessionId: string): Promise<ChatSession> {
    await touch(this.db, userId, sessionId);
    return this.get(userId, sessionId);
  }

  /** Deletes a session and its messages; false when the user has no such session. */
  async remove(userId: string, sessionId: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('ai_sessions')
      .where('session_id', '=', sessionId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async get(userId: string, sessionId: string): Promise<ChatSession> {
    const row = await this.sessionsWithCounts()
      .where('s.user_id', '=', userId)
      .where('s.session_id', '=', sessionId)
      .executeTakeFirst();
    if (!row) throw new SessionNotFoundError();
    return toSession(row);
  }

  /**
   * Appends messages to a session in order and marks it active; throws SessionNotFoundError
   * when the session is not the user's. Overlong content is cut with a marker.
   */
  async append(userId: string, sessionId: string, messages: NewMessage[], about: SessionTopic = {}): Promise<ChatMessageRecord[]> {
    return this.db.transaction().execute(async (trx) => {
      await touch(trx, userId, sessionId);
      // touch() locked the session's row: appends to one session count one after another.
      const { n } = await trx
        .selectFrom('ai_messages')
        .select(sql<string>`count(*)`.as('n'))
        .where('session_id', '=', sessionId)
        .executeTakeFirstOrThrow();
      const max = this.quotas.messagesPerSession;
      if (Number(n) + messages.length > max) throw new SessionQuotaError(QUOTA_TEXTS.messages(max));
      const out: ChatMessageRecord[] = [];
      // One insert per message, in order: seq then records the order they were given in.
      for (const message of messages) {
        const content =
          message.content.length > CHAT_MESSAGE_MAX_LENGTH
            ? message.content.slice(0, CHAT_MESSAGE_MAX_LENGTH - CUT_MARKER.length) + CUT_MARKER
            : message.content;
        const metadata = { ...message.metadata, ...(await this.storedFigures(trx, userId, message.figures)) };
        const row = await trx
          .insertInto('ai_messages')
          .values({ id: randomUUID(), session_id: sessionId, role: message.role, content, metadata: JSON.stringify(metadata) })
          .returning(['id', 'session_id', 'role', 'content', 'metadata', 'created_at'])
          .executeTakeFirstOrThrow();
        out.push(toMessage(row));
      }
      // The card's summary and tags (spec 02 §2): what the session is about, kept up to date here.
      const before = await trx.selectFrom('ai_sessions').select(['context_summary', 'tags']).where('session_id', '=', sessionId).executeTakeFirstOrThrow();
      const summary = before.context_summary ?? sessionSummary(messages);
      const tags = sessionTags(before.tags, messages, about);
      if (summary !== before.context_summary || tags.length !== before.tags.length) {
        await trx.updateTable('ai_sessions').set({ context_summary: summary, tags: JSON.stringify(tags) }).where('session_id', '=', sessionId).execute();
      }
      return out;
    });
  }

  /** An answer's figures as its metadata stores them: those that fit the budget, room made for them, the rest counted. */
  private async storedFigures(trx: Kysely<AiDatabase>, userId: string, figures: CodeRunFigure[] | undefined): Promise<Record<string, unknown>> {
    if (!figures?.length) return {};
    const { kept, bytes } = figuresToKeep(figures, this.quotas.figuresPerUserBytes);
    if (kept.length) await makeRoomForFigures(trx, userId, bytes, this.quotas.figuresPerUserBytes);
    const notKept = figures.length - kept.length;
    return { ...(kept.length ? { figures: kept } : {}), ...(notKept ? { figures_not_kept: notKept } : {}) };
  }

  /** The last `limit` messages of the user's session (default: the 10 the model sees), oldest first. */
  async lastMessages(
    userId: string,
    sessionId: string,
    limit: number = AI_CONVERSATION_CONTEXT,
    /** With the answers' stored figures (for the chat to show); the model's context goes without those megabytes. */
    { withFigures = false } = {},
  ): Promise<ChatMessageRecord[]> {
    await this.get(userId, sessionId);
    const rows = await this.db
      .selectFrom('ai_messages')
      .select(['id', 'session_id', 'role', 'content', 'created_at'])
      .select(withFigures ? sql<Record<string, unknown>>`metadata`.as('metadata') : sql<Record<string, unknown>>`metadata - 'figures'`.as('metadata'))
      .where('session_id', '=', sessionId)
      .orderBy('seq', 'desc')
      .limit(Math.max(1, Math.min(limit, CHAT_MAX_MESSAGES)))
      .execute();
    return rows.reverse().map(toMessage);
  }

  private sessionsWithCounts() {
    return this.db
      .selectFrom('ai_sessions as s')
      .select((eb) => [
        's.session_id',
        's.session_name',
        's.last_active',
        's.created_at',
        's.context_summary',
        's.tags',
        eb
          .selectFrom('ai_messages as m')
          .whereRef('m.session_id', '=', 's.session_id')
          .select(sql<string>`count(*)`.as('n'))
          .as('message_count'),
      ]);
  }
}

/** Marks the user's session active now; throws SessionNotFoundError when the user has no such session. */
async function touch(db: Kysely<AiDatabase>, userId: string, sessionId: string): Promise<void> {
  const result = await db
    .updateTable('ai_sessions')
    .set({ last_active: sql<Date>`clock_timestamp()` })
    .where('session_id', '=', sessionId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw new SessionNotFoundError();
}

function iso(value: Date | string): string {
  return new Date(value).toISOString();
}

function toSession(row: {
  session_id: string;
  session_name: string;
  last_active: Date;
  created_at: Date;
  context_summary: string | null;
  tags: string[];
  message_count: string | number | null;
}): ChatSession {
  return {
    session_id: row.session_id,
    session_name: row.session_name,
    // count(*) is a bigint: pg hands it over as text.
    message_count: Number(row.message_count ?? 0),
    last_active: iso(row.last_active),
    created_at: iso(row.created_at),
    context_summary: row.context_summary,
    tags: row.tags,
  };
}

function toMessage(row: {
  id: string;
  session_id: string;
  role: ChatRole;
  content: string;
  metadata: Record<string, unknown>;
  created_at: Date;
}): ChatMessageRecord {
  return { id: row.id, session_id: row.session_id, role: row.role, content: row.content, metadata: row.metadata, created_at: iso(row.created_at) };
}
