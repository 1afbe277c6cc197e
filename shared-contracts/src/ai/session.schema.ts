import { z } from 'zod';
import { CHAT_MAX_MESSAGES, CHAT_SESSIONS_MAX } from '../constants.js';

/**
 * AI chat sessions and their messages (spec 02 §3 Chat session / Chat message, §4 Sessions,
 * §7 /vertex/user-sessions). A session belongs to the signed-in user (the token's subject):
 * a `user_id` in a query or body is accepted for the spec's clients and ignored.
 */

export const SESSION_NAME_MAX_LENGTH = 100;
export const SESSION_TAGS_MAX = 20;
export const SESSION_TAG_MAX_LENGTH = 50;
/** Longest message kept in a session (a model's reply can be long; a user's prompt is shorter). */
export const CHAT_MESSAGE_MAX_LENGTH = 200_000;

/** Texts of the session rules (spec 02 §5, §8); the spec gives no server wording, these follow its pattern. */
export const SESSION_TEXTS = {
  nameEmpty: 'Session name cannot be empty',
  nameTooLong: `Session name cannot exceed ${SESSION_NAME_MAX_LENGTH} characters`,
  notFound: 'Session not found',
  /** Spec 02 §8, exact. */
  noActiveSession: 'No active session. Please create a session first.',
  /** Spec 02 §8, exact (the panel shows it after "Error: "). */
  noActiveSessionEnhanced: 'No active session for enhanced mode. Please create a session first.',
  confirmDelete: 'Are you sure you want to delete this session?',
} as const;

/** Spec 02 §8: the panel's session failures, each followed by the reply's status text. */
export const failedToCreateSession = (detail: string) => `Failed to create session: ${detail}`;
export const failedToSwitchSession = (detail: string) => `Failed to switch session: ${detail}`;
export const failedToDeleteSession = (detail: string) => `Failed to delete session: ${detail}`;
export const enhancedChatFailed = (detail: string) => `Enhanced chat failed: ${detail}`;

export const CHAT_ROLES = ['user', 'assistant', 'system'] as const;
export const ChatRoleSchema = z.enum(CHAT_ROLES);
export type ChatRole = z.infer<typeof ChatRoleSchema>;

/** Chat session (spec 02 §3) as the server lists it. */
export const ChatSessionSchema = z.object({
  session_id: z.string(),
  session_name: z.string(),
  message_count: z.number().int().min(0),
  /** ISO time of the last create, switch or message. */
  last_active: z.string(),
  created_at: z.string(),
  context_summary: z.string().nullable(),
  tags: z.array(z.string()),
});
export type ChatSession = z.infer<typeof ChatSessionSchema>;

/** A stored message of a session (spec 02 §3 Chat message, as persisted). */
export const ChatMessageRecordSchema = z.object({
  id: z.string(),
  session_id: z.string(),
  role: ChatRoleSchema,
  content: z.string(),
  created_at: z.string(),
  /** What produced it: the route, the mode, the provider and model. */
  metadata: z.record(z.string(), z.unknown()),
});
export type ChatMessageRecord = z.infer<typeof ChatMessageRecordSchema>;

/** GET /vertex/user-sessions: the user's sessions, most recently active first, at most CHAT_SESSIONS_MAX. */
export const SessionListSchema = z.object({ sessions: z.array(ChatSessionSchema).max(CHAT_SESSIONS_MAX) });
export type SessionList = z.infer<typeof SessionListSchema>;

/** The query of GET/DELETE /vertex/user-sessions; `user_id` is the spec's, accepted and ignored. */
export const SessionQuerySchema = z.object({
  user_id: z.string().max(200).optional(),
  session_id: z.string().max(200).optional(),
});

const SessionNameSchema = z
  .string({ error: SESSION_TEXTS.nameEmpty })
  .trim()
  .min(1, { error: SESSION_TEXTS.nameEmpty })
  .max(SESSION_NAME_MAX_LENGTH, { error: SESSION_TEXTS.nameTooLong });

/** POST /vertex/user-sessions: create by name, or switch to an id (spec 02 §7). */
export const SessionActionBodySchema = z.discriminatedUnion(
  'action',
  [
    z.object({
      action: z.literal('create'),
      session_name: SessionNameSchema,
      tags: z.array(z.string().trim().min(1).max(SESSION_TAG_MAX_LENGTH)).max(SESSION_TAGS_MAX).optional(),
      context_summary: z.string().max(2000).optional(),
      user_id: z.string().max(200).optional(),
    }),
    z.object({
      action: z.literal('switch'),
      session_id: z.string({ error: 'session_id is required to switch' }).min(1).max(200),
      user_id: z.string().max(200).optional(),
    }),
  ],
  { error: 'action must be create or switch' },
);
export type SessionActionBody = z.infer<typeof SessionActionBodySchema>;

/** The reply of create and switch: the session, and (switch) its last messages, oldest first. */
export const SessionReplySchema = z.object({
  session: ChatSessionSchema,
  messages: z.array(ChatMessageRecordSchema).max(CHAT_MAX_MESSAGES).optional(),
});
export type SessionReply = z.infer<typeof SessionReplySchema>;

/** DELETE /vertex/user-sessions?session_id= (or the same in a JSON body). */
export const DeleteSessionBodySchema = z.object({
  session_id: z.string({ error: 'session_id is required' }).min(1, { error: 'session_id is required' }).max(200),
  user_id: z.string().max(200).optional(),
});
export const DeleteSessionReplySchema = z.object({ success: z.literal(true), session_id: z.string() });
export type DeleteSessionReply = z.infer<typeof DeleteSessionReplySchema>;
